// Settings of the platform client; main.ts builds them from the environment, tests pass their own.
// Origins are configuration so the same client talks to the real platform or to the emulator.
import type { BrowserSettings } from './transport/fallback.ts';
import { DEFAULT_SIGNING_PROFILE, type SigningProfileName } from './signing/profiles.ts';

export type UpstreamConfig = {
  /** https://www.tiktok.com */
  webOrigin: string;
  /** https://webcast.tiktok.com */
  webcastOrigin: string;
  /** Deadline of one platform request (one attempt), body included. */
  requestTimeoutMs: number;
  /** Attempts per call, the first one included. */
  maxAttempts: number;
  /** First retry delay; later ones grow exponentially with jitter. */
  retryBaseDelayMs: number;
  /** Longest delay between two attempts. */
  retryMaxDelayMs: number;
  identityCount: number;
  identityRatePerSecond: number;
  /** Proxy URLs handed to identities round robin; empty = direct. */
  proxies: string[];
  wafSolveTimeoutMs: number;
  /** Two-letter region sent as `region`/`priority_region` (PLATFORM.md §1). */
  region: string;
  /** Language sent as `language`/`app_language`/`webcast_language`. */
  language: string;
  breaker: { failureThreshold: number; halfOpenAfterMs: number };
  maxConcurrent: number;
  maxConcurrentPerIdentity: number;
  /** Seconds a client is told to wait after the platform blocked us. */
  blockedRetryAfterSeconds: number;
  /** The Chromium transport: off, a fallback after native signing is refused, or always. */
  browser: BrowserSettings;
  /** Which signature parameters native API calls carry (signing/profiles.ts). */
  signing: SigningProfileName;
};

export const defaultUpstreamConfig: Readonly<UpstreamConfig> = Object.freeze({
  webOrigin: 'https://www.tiktok.com',
  webcastOrigin: 'https://webcast.tiktok.com',
  requestTimeoutMs: 10_000,
  maxAttempts: 3,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 4_000,
  identityCount: 4,
  identityRatePerSecond: 2,
  proxies: [],
  wafSolveTimeoutMs: 5_000,
  region: 'US',
  language: 'en',
  breaker: Object.freeze({ failureThreshold: 10, halfOpenAfterMs: 30_000 }),
  maxConcurrent: 32,
  maxConcurrentPerIdentity: 4,
  blockedRetryAfterSeconds: 30,
  browser: Object.freeze({ mode: 'off', executablePath: undefined, stickyMs: 10 * 60_000, sessions: 2 }),
  signing: DEFAULT_SIGNING_PROFILE,
});

/** Defaults with the given overrides; nested `breaker` is merged too. */
export function resolveUpstreamConfig(overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return {
    ...defaultUpstreamConfig,
    ...overrides,
    breaker: { ...defaultUpstreamConfig.breaker, ...overrides.breaker },
    proxies: [...(overrides.proxies ?? defaultUpstreamConfig.proxies)],
  };
}
