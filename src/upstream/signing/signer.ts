// How requests get their signature: callers hand over a URL and get it back signed, so a newer
// scheme (another X-Gnarly field set, a browser-backed signer) can replace the current one
// without touching them. Which parameters are added is data: see profiles.ts.
import { randomInt } from 'node:crypto';
import { DEFAULT_SIGNING_PROFILE, SIGNING_PROFILES, type SigningProfile, type SigningProfileName } from './profiles.ts';
import { signXBogus } from './x-bogus.ts';
import { encodeXGnarly, requestFields } from './x-gnarly.ts';

export type SignInput = { userAgent: string; nowMs: number; body?: string };

export interface Signer {
  readonly profile: string;
  /** Returns a copy of `url` with its signature parameters appended last, over the query as sent. */
  sign(url: URL, input: SignInput): URL;
}

const randomWord = () => randomInt(0, 2 ** 32);

/** Signs the query exactly as it will be sent (the WHATWG serialisation a browser uses, §5.2). */
export function createSigner(profile: SigningProfile | SigningProfileName = DEFAULT_SIGNING_PROFILE, words: () => number = randomWord): Signer {
  const settings: SigningProfile = typeof profile === 'string' ? SIGNING_PROFILES[profile] : profile;
  return {
    profile: settings.name,
    sign(url, { userAgent, nowMs, body = '' }) {
      const signed = new URL(url);
      const query = signed.search.startsWith('?') ? signed.search.slice(1) : signed.search;
      const xBogus = settings.xBogus === 'literal' ? '1' : signXBogus(query, userAgent, Math.floor(nowMs / 1000));
      const suffix = [`X-Bogus=${xBogus}`];
      const gnarly = settings.xGnarly;
      if (gnarly) {
        const fields = requestFields({
          query,
          body,
          userAgent,
          nowMs,
          envCode: gnarly.envCode,
          ubCode: gnarly.ubCodes[signed.pathname] ?? 0,
          canvas: gnarly.canvas,
          version: gnarly.version,
          ...(gnarly.scmVersion ? { scmVersion: gnarly.scmVersion } : {}),
        });
        suffix.push(`X-Gnarly=${encodeXGnarly(fields, words)}`);
      }
      // Signature values go unescaped, as the SDK appends them (their alphabets hold `/` and `=`).
      signed.search = query === '' ? suffix.join('&') : `${query}&${suffix.join('&')}`;
      return signed;
    },
  };
}

/** The 2024 scheme alone; kept for tests of it and for `REELAY_SIGNING=legacy-xbogus`. */
export function createXBogusSigner(): Signer {
  return createSigner('legacy-xbogus');
}
