// Which transport serves an endpoint: native requests (impit, reelay's own signing) or a Chromium
// page running the platform's script. `fallback` moves an endpoint to the browser after the
// platform refused its natively signed calls, and keeps it there for a while.
import { randomBytes } from 'node:crypto';
import type { EndpointRequest } from '../endpoints.ts';
import type { Identity, Lease } from '../identities.ts';
import { randomDeviceId } from '../identities.ts';
import { profileFromUserAgent } from '../params.ts';
import type { BrowserEngine, BrowserSession } from './browser.ts';

export type BrowserMode = 'off' | 'fallback' | 'always';

export type BrowserSettings = {
  mode: BrowserMode;
  /** Chromium's path; without one the mode is `off` whatever was asked. */
  executablePath: string | undefined;
  /** How long an endpoint stays on the browser after native signing was refused there. */
  stickyMs: number;
  /** Browser contexts (identities) kept open at once. */
  sessions: number;
};

/** The platform's ways of refusing a signature, device id or msToken (PLATFORM.md §4). */
const SIGNING_REFUSALS = new Set(['empty_200', 'empty_200_orcas', 'same_page_again']);

export function isSigningRefusal(reason: string): boolean {
  return SIGNING_REFUSALS.has(reason);
}

/** Only signed JSON calls on the web origin go through the page: its script signs nothing else. */
export function browserCanServe(request: EndpointRequest): boolean {
  return request.kind === 'web-api' && request.origin !== 'webcast';
}

export type TransportChooser = ReturnType<typeof createTransportChooser>;

export function createTransportChooser(deps: {
  settings: BrowserSettings;
  engine: BrowserEngine | undefined;
  clock: { now(): number };
  logger?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}) {
  const { settings, engine, clock } = deps;
  const enabled = engine !== undefined && settings.mode !== 'off';
  const browserUntil = new Map<string, number>();
  const sessions = new Map<number, Promise<Identity>>();
  let next = 0;

  async function browserIdentity(session: BrowserSession): Promise<Identity> {
    await session.ready();
    return {
      id: `browser-${randomBytes(6).toString('hex')}`,
      deviceId: randomDeviceId(),
      verifyFp: `verify_${randomBytes(4).toString('hex').slice(0, 7)}`,
      profile: profileFromUserAgent('chrome', session.userAgent),
      session,
      hasProxy: false,
      inFlight: 0,
      lastStartMs: Number.NEGATIVE_INFINITY,
      retired: false,
    };
  }

  return {
    /** True when this request should go through the browser now. */
    useBrowser(request: EndpointRequest): boolean {
      if (!enabled || !browserCanServe(request)) return false;
      if (settings.mode === 'always') return true;
      return (browserUntil.get(request.endpoint) ?? 0) > clock.now();
    },
    /** Records a native refusal; true when the request should be tried again in the browser. */
    refusedNatively(request: EndpointRequest, reason: string): boolean {
      if (!enabled || settings.mode !== 'fallback' || !browserCanServe(request) || !isSigningRefusal(reason)) return false;
      if ((browserUntil.get(request.endpoint) ?? 0) <= clock.now()) {
        deps.logger?.warn({ endpoint: request.endpoint, reason, forMs: settings.stickyMs }, 'native signing refused: this endpoint now goes through the browser');
      }
      browserUntil.set(request.endpoint, clock.now() + settings.stickyMs);
      return true;
    },
    /** A browser identity, round robin over a few contexts opened on first use. */
    async acquire(): Promise<Lease> {
      if (!engine) throw new Error('browser transport is off');
      const slot = next++ % settings.sessions;
      let opening = sessions.get(slot);
      if (!opening) {
        const opened = engine.newSession().then(browserIdentity);
        opened.catch(() => {
          if (sessions.get(slot) === opened) sessions.delete(slot);
        });
        sessions.set(slot, opened);
        opening = opened;
      }
      const identity = await opening;
      identity.inFlight += 1;
      let released = false;
      return {
        identity,
        release() {
          if (released) return;
          released = true;
          identity.inFlight -= 1;
        },
      };
    },
    /** Endpoints currently served by the browser (for metrics and `reelay doctor`). */
    browserEndpoints(): string[] {
      const now = clock.now();
      return settings.mode === 'always' ? ['*'] : [...browserUntil].filter(([, until]) => until > now).map(([endpoint]) => endpoint);
    },
    async close(): Promise<void> {
      await engine?.close();
    },
  };
}
