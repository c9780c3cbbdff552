// Webhook delivery per the Standard Webhooks specification (webhook-id, webhook-timestamp,
// webhook-signature, HMAC-SHA256 signed with the `standardwebhooks` package): one bounded POST per
// attempt, the address re-checked when connecting, no redirects, and the retry schedule.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createGuardedLookup, RefusedAddress, refusalOf, type WebhookPolicy } from './ssrf.ts';

export type WebhookSettings = WebhookPolicy & {
  timeoutMs: number;
  /** First retry delay; each later one doubles, capped at retryDelayMaxMs, with jitter. */
  retryBaseMs: number;
  retryDelayMaxMs: number;
  /** How long a delivery is retried before it is kept as failed. */
  retryForMs: number;
  /** Bytes of a receiver's answer read at most; the rest is discarded. */
  responseBytesMax: number;
};

export const DEFAULT_WEBHOOK_SETTINGS: Omit<WebhookSettings, 'allowPrivate'> = {
  timeoutMs: 10_000,
  retryBaseMs: 5_000,
  retryDelayMaxMs: 3_600_000,
  retryForMs: 24 * 3_600_000,
  responseBytesMax: 64 * 1024,
};

/** A per-watch signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `msg_` + 26 random characters: the webhook-id, the same on every attempt of one delivery. */
export function newDeliveryId(): string {
  return `msg_${randomBytes(20).toString('base64url').slice(0, 26)}`;
}

export function signedHeaders(secret: string, id: string, at: Date, payload: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, payload),
  };
}

/**
 * Delay before attempt `attempts + 1`: exponential from retryBaseMs, capped, with "equal jitter"
 * (half fixed, half random) so receivers coming back up are not hit by every sender at once.
 */
export function retryDelayMs(attempts: number, settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryDelayMaxMs'>, random: () => number = Math.random): number {
  const exp = Math.min(settings.retryDelayMaxMs, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}

export type AttemptResult = { ok: boolean; status: number | null; error: string | null; /** Never worth retrying. */ permanent: boolean };

function drain(response: IncomingMessage, maxBytes: number): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) response.destroy();
    });
    response.on('end', resolve);
    response.on('close', resolve);
    response.on('error', () => resolve());
  });
}

/** One POST of a signed payload; never throws. */
export function createWebhookSender(settings: WebhookSettings, options: { userAgent?: string; now?: () => number } = {}) {
  const lookup = createGuardedLookup(settings);
  const now = options.now ?? Date.now;
  return function attempt(url: string, secret: string, id: string, payload: string): Promise<AttemptResult> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ ok: false, status: null, error: 'invalid URL', permanent: true });
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    // An IP literal is dialled without a lookup: check it here (the operator's flag may have changed).
    const refusal = isIP(host) ? refusalOf(host, settings) : undefined;
    if (refusal) return Promise.resolve({ ok: false, status: null, error: `refused: ${refusal}`, permanent: true });
    const body = Buffer.from(payload);
    const headers = {
      ...signedHeaders(secret, id, new Date(now()), payload),
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': options.userAgent ?? 'reelay-webhooks',
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      // agent: false: every attempt dials anew, so every attempt's address goes through `lookup`.
      const req = send(target, { method: 'POST', headers, agent: false, lookup: lookup as never }, (response) => {
        const status = response.statusCode ?? 0;
        void drain(response, settings.responseBytesMax).then(() => {
          if (status >= 200 && status < 300) return finish({ ok: true, status, error: null, permanent: false });
          const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
          finish({ ok: false, status, error, permanent: false });
        });
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish({ ok: false, status: null, error: `no answer within ${settings.timeoutMs} ms`, permanent: false });
      }, settings.timeoutMs);
      req.on('error', (error: Error & { code?: string }) => {
        if (error instanceof RefusedAddress) return finish({ ok: false, status: null, error: `refused: ${error.message}`, permanent: true });
        finish({ ok: false, status: null, error: error.code ?? 'connection failed', permanent: false });
      });
      req.end(body);
    });
  };
}

export type WebhookAttempt = ReturnType<typeof createWebhookSender>;
