// Fault injection by path and probability: latency adds up over every matching rule; of the
// other kinds, the first matching rule whose roll hits decides the answer.
import { z } from 'zod';

export const FAULT_KINDS = [
  'latency', 'status_429', 'status_5xx', 'reset', 'slow_body', 'malformed_json', 'empty_200', 'waf', 'captcha',
  'changed_shape', 'refuse_native',
] as const;

export const FaultRule = z.object({
  path: z.string().min(1),
  probability: z.number().min(0).max(1),
  kind: z.enum(FAULT_KINDS),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  latencyJitterMs: z.number().int().min(0).max(120_000).optional(),
  status: z.number().int().min(100).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
});
export type FaultRule = z.infer<typeof FaultRule>;

export const FaultConfig = z.object({ rules: z.array(FaultRule).max(1000) });
export type FaultConfig = z.infer<typeof FaultConfig>;

export type FaultDecision = { latencyMs: number; rule: FaultRule | undefined };

/** `*` matches all, `prefix*` a prefix, anything else the exact path. */
export function pathMatches(pattern: string, path: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  return pattern === path;
}

export function decideFaults(config: FaultConfig, path: string, random: () => number): FaultDecision {
  let latencyMs = 0;
  let chosen: FaultRule | undefined;
  for (const rule of config.rules) {
    if (!pathMatches(rule.path, path)) continue;
    if (rule.probability <= 0 || random() >= rule.probability) continue;
    if (rule.kind === 'latency') {
      latencyMs += (rule.latencyMs ?? 1000) + Math.floor(random() * (rule.latencyJitterMs ?? 0));
    } else if (!chosen) {
      chosen = rule;
    }
  }
  return { latencyMs, rule: chosen };
}

const MAIN_KEYS = ['itemList', 'userInfo', 'userList', 'comments', 'itemInfo', 'challengeInfo', 'playList', 'data'];

/** `changed_shape`: same status, but the body's main key is renamed, as after a platform change. */
export function changeShape(json: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) out[MAIN_KEYS.includes(k) ? `${k}V2` : k] = v;
  return out;
}

/** `changed_shape` on a page: the scope keys the client reads move. */
export function changePageShape(scope: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(scope)) out[k.startsWith('webapp.') && k !== 'webapp.app-context' ? `${k}-v2` : k] = v;
  return out;
}
