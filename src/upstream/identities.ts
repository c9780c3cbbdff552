// The identity pool: each identity is a browser session (cookies, UA, TLS fingerprint, proxy) plus
// a device id. The healthiest unpaced identity serves each request; blocked ones are retired.
import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { UpstreamConfig } from './config.ts';
import type { IdentityHealthStore } from './health.ts';
import type { HttpSession, SessionFactory } from './http-session.ts';
import type { BrowserName } from './params.ts';
import { profileFromUserAgent, type BrowserProfile } from './params.ts';
import { BROWSER } from './browser-version.ts';

export type Identity = {
  readonly id: string;
  readonly deviceId: string;
  readonly verifyFp: string;
  readonly profile: BrowserProfile;
  readonly session: HttpSession;
  readonly hasProxy: boolean;
  inFlight: number;
  lastStartMs: number;
  retired: boolean;
};

export type Lease = { identity: Identity; release(): void };

/** The range yt-dlp and gallery-dl draw device ids from (PLATFORM.md §1). */
const DEVICE_ID_MIN = 7250000000000000000n;
const DEVICE_ID_MAX = 7325099899999994577n;

export function randomDeviceId(): string {
  const span = DEVICE_ID_MAX - DEVICE_ID_MIN + 1n;
  const r = BigInt(`0x${randomBytes(8).toString('hex')}`) % span;
  return (DEVICE_ID_MIN + r).toString();
}

function randomVerifyFp(): string {
  return `verify_${randomBytes(4).toString('hex').slice(0, 7)}`;
}

export type PoolDeps = {
  config: Pick<UpstreamConfig, 'identityCount' | 'identityRatePerSecond' | 'maxConcurrentPerIdentity' | 'proxies' | 'webOrigin' | 'requestTimeoutMs'>;
  createSession: SessionFactory;
  health: IdentityHealthStore;
  clock: { now(): number };
  logger?: { warn(obj: object, msg: string): void };
  /** Told when an identity leaves rotation, with the platform's reason (metrics). */
  onRetire?: (reason: string) => void;
};

/** Identities of the pool by state: in rotation and served (`healthy`) or mostly failing (`degraded`), or being set up. */
export type IdentityStates = { healthy: number; degraded: number; bootstrapping: number };

/** Below this health score an identity counts as degraded: two failures in a row from a perfect score. */
export const HEALTHY_SCORE_MIN = 0.5;

export type IdentityPool = ReturnType<typeof createIdentityPool>;

export function createIdentityPool(deps: PoolDeps) {
  const { config, clock } = deps;
  const intervalMs = 1000 / config.identityRatePerSecond;
  const live: Identity[] = [];
  const creating = new Set<Promise<void>>();
  let created = 0;

  async function createIdentity(): Promise<Identity> {
    // One browser version everywhere: a Firefox TLS handshake under a Chrome User-Agent would stand out.
    const browser: BrowserName = BROWSER.impitProfile;
    const proxy = config.proxies.length > 0 ? config.proxies[created % config.proxies.length] : undefined;
    created += 1;
    const session = await deps.createSession({ browser, proxy });
    const identity: Identity = {
      id: `${browser}-${randomBytes(6).toString('hex')}`,
      deviceId: randomDeviceId(),
      verifyFp: randomVerifyFp(),
      profile: profileFromUserAgent(browser, session.userAgent),
      session,
      hasProxy: proxy !== undefined,
      inFlight: 0,
      lastStartMs: Number.NEGATIVE_INFINITY,
      retired: false,
    };
    await bootstrap(identity);
    return identity;
  }

  // The platform sets ttwid, tt_chain_token, msToken… on its home page; an identity without them
  // still works often enough, and a rejection later rotates it away.
  async function bootstrap(identity: Identity): Promise<void> {
    try {
      const signal = AbortSignal.timeout(config.requestTimeoutMs);
      const response = await identity.session.fetch(new URL('/', config.webOrigin).href, { signal });
      await response.text();
    } catch (error) {
      deps.logger?.warn({ identity: identity.id, err: (error as Error).name }, 'identity bootstrap failed');
    }
  }

  function fill(): void {
    while (live.length + creating.size < config.identityCount) {
      const pending: Promise<void> = createIdentity()
        .then((identity) => void live.push(identity))
        .catch((error: unknown) => deps.logger?.warn({ err: (error as Error).name }, 'identity creation failed'))
        .finally(() => creating.delete(pending));
      creating.add(pending);
    }
  }

  /** Synchronous pick: the healthiest identity that is neither paced nor saturated. */
  function tryAcquire(scores: ReadonlyMap<string, number>): Lease | { waitMs: number } {
    const now = clock.now();
    let best: Identity | undefined;
    let waitMs = Number.POSITIVE_INFINITY;
    for (const identity of live) {
      if (identity.retired) continue;
      const readyIn = identity.lastStartMs + intervalMs - now;
      if (identity.inFlight >= config.maxConcurrentPerIdentity) continue;
      if (readyIn > 0) {
        waitMs = Math.min(waitMs, readyIn);
        continue;
      }
      if (!best || (scores.get(identity.id) ?? 1) > (scores.get(best.id) ?? 1)) best = identity;
    }
    if (!best) return { waitMs };
    const chosen = best;
    chosen.inFlight += 1;
    chosen.lastStartMs = now;
    let released = false;
    return {
      identity: chosen,
      release() {
        if (released) return;
        released = true;
        chosen.inFlight -= 1;
      },
    };
  }

  async function scoresOf(): Promise<Map<string, number>> {
    const entries = await Promise.all(
      live.map(async (i) => [i.id, (await deps.health.get(i.id))?.score ?? 1] as const),
    );
    return new Map(entries);
  }

  /** Waits (bounded by requestTimeoutMs) for an identity; saturation → upstream_blocked. */
  async function acquire(): Promise<Lease> {
    const deadline = clock.now() + config.requestTimeoutMs;
    for (let round = 0; round < 1_000; round += 1) {
      fill();
      if (live.length === 0 && creating.size > 0) await Promise.race(creating);
      const picked = tryAcquire(await scoresOf());
      if ('identity' in picked) return picked;
      const remaining = deadline - clock.now();
      if (remaining <= 0) break;
      const waitMs = Number.isFinite(picked.waitMs) ? picked.waitMs : Math.min(25, remaining);
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(waitMs, remaining))));
    }
    throw new AppError('upstream_blocked', 'Too many platform requests are in progress; try again shortly.', {
      retryAfterSeconds: 1,
    });
  }

  /** Takes a blocked identity out of rotation; a fresh one is bootstrapped on the next acquire. */
  function retire(identity: Identity, reason = 'blocked'): void {
    if (identity.retired) return;
    identity.retired = true;
    const index = live.indexOf(identity);
    if (index < 0) return;
    live.splice(index, 1);
    deps.onRetire?.(reason);
  }

  /** How many identities are in each state now (read from the health store, shared with Redis). */
  async function states(): Promise<IdentityStates> {
    const scores = await scoresOf();
    let healthy = 0;
    for (const identity of live) if ((scores.get(identity.id) ?? 1) >= HEALTHY_SCORE_MIN) healthy += 1;
    return { healthy, degraded: live.length - healthy, bootstrapping: creating.size };
  }

  return {
    acquire,
    tryAcquire,
    retire,
    states,
    fill,
    /** Identities in rotation (for tests and metrics). */
    get identities(): readonly Identity[] {
      return live;
    },
    async ready(): Promise<void> {
      fill();
      await Promise.all([...creating]);
    },
  };
}
