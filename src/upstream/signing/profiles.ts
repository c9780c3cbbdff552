// Signing profiles: which signature parameters an API call carries, in which order, and with which
// X-Gnarly field set. The platform changes these a few times a year; the next change should be a
// new entry here (PLATFORM.md §5.2 lists the history), chosen with REELAY_SIGNING.

export type GnarlySettings = {
  /** Field 9. */
  version: string;
  /** Field 10, and with it the counter (11) and inner checksum (12) of 5.1.1 and later. */
  scmVersion?: string;
  /** Field 1. */
  envCode: number;
  /** Field 2, endpoint-dependent in the SDK: 0 unless a path is listed. */
  ubCodes: Readonly<Record<string, number>>;
  /** Field 7, the canvas fingerprint constant. */
  canvas: number;
};

export type SigningProfile = {
  name: string;
  /** `computed`: the 28-character X-Bogus; `literal`: the value `1` the current SDK sends on HTTP calls. */
  xBogus: 'computed' | 'literal';
  /** Absent: no X-Gnarly (the 2024 scheme). */
  xGnarly?: GnarlySettings;
};

export const SIGNING_PROFILES = {
  // The web SDK of 2025–26: `…&msToken=…&X-Bogus=1&X-Gnarly=<seal>` (EV-new, verified 2026-09-08).
  // Its 5.3.x field set is not published in the sources read; 5.1.1's layout is, and a receiver that
  // decodes the seal (as the emulator's strict profile does) checks the same bindings.
  'web-2026': {
    name: 'web-2026',
    xBogus: 'literal',
    xGnarly: { version: '5.1.1', scmVersion: '1.0.0.314', envCode: 1, ubCodes: { '/api/post/item_list/': 8 }, canvas: 1508145731 },
  },
  // What worked until 2025: a computed X-Bogus over the query and User-Agent, nothing else.
  'legacy-xbogus': { name: 'legacy-xbogus', xBogus: 'computed' },
} as const satisfies Record<string, SigningProfile>;

export type SigningProfileName = keyof typeof SIGNING_PROFILES;
export const SIGNING_PROFILE_NAMES = Object.keys(SIGNING_PROFILES) as SigningProfileName[];
export const DEFAULT_SIGNING_PROFILE: SigningProfileName = 'web-2026';
