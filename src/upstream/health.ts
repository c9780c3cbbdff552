// Recent health of each identity, so the pool prefers the ones the platform still serves.
// In memory here; a shared (Redis) store implements the same interface for multi-node setups.
import type { UpstreamOutcome } from './types.ts';

export type IdentityHealth = { score: number; updatedAtMs: number };

export interface IdentityHealthStore {
  get(identityId: string): Promise<IdentityHealth | undefined>;
  record(identityId: string, outcome: UpstreamOutcome, nowMs: number): Promise<void>;
}

/** Exponentially weighted: one outcome moves the score 30% of the way to 1 (served) or 0. */
const WEIGHT = 0.3;

/** Outcomes that say nothing about the identity (the content is missing or private, the caller gave up). */
const NEUTRAL: ReadonlySet<UpstreamOutcome> = new Set(['not_found', 'private_account', 'private_content', 'geo_blocked', 'cancelled']);

export function nextHealthScore(previous: number, outcome: UpstreamOutcome): number {
  if (NEUTRAL.has(outcome)) return previous;
  const target = outcome === 'ok' ? 1 : 0;
  return previous + (target - previous) * WEIGHT;
}

export function createMemoryIdentityHealthStore(options: { maxEntries?: number } = {}): IdentityHealthStore {
  const maxEntries = options.maxEntries ?? 1_000;
  const entries = new Map<string, IdentityHealth>();
  return {
    async get(identityId) {
      return entries.get(identityId);
    },
    async record(identityId, outcome, nowMs) {
      const previous = entries.get(identityId)?.score ?? 1;
      entries.delete(identityId);
      entries.set(identityId, { score: nextHealthScore(previous, outcome), updatedAtMs: nowMs });
      // Retired identities never come back; drop the oldest entries beyond the bound.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}
