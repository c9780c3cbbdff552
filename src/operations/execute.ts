// Runs a registry operation for any transport: validates the raw input once, then answers from the
// response cache (coalesced, stale-aware) or runs the operation and stores its serialised `data`.
import type { z } from 'zod';
import { LRUCache } from 'lru-cache';
import { createEphemeralCursorSigner, type CursorSigner } from './cursor-keys.ts';
import { invalidCursor } from './paging.ts';
import { AppError, isAppError } from '../errors.ts';
import type { Operation, OperationDeps, OperationResult, ProjectionPreset } from './types.ts';
import type { CachePolicy, CacheResult, ResponseCache } from '../cache/types.ts';
import { toEntry } from '../cache/response-cache.ts';
import { project } from '../activitystreams/index.ts';
import { withSignal } from './shared.ts';

export type Executor = {
  /** Parses path+query (REST) or tool arguments (MCP); throws `invalid_request` naming each bad parameter. */
  parse(op: Operation, raw: Record<string, unknown>): z.infer<Operation['input']>;
  /** When `signal` aborts, the caller stops waiting and work nobody else waits for is cancelled. */
  execute(op: Operation, input: z.infer<Operation['input']>, options?: { signal?: AbortSignal }): Promise<OperationResult>;
  /** JSON bytes of the `data` member in a projection preset (full: the cached bytes themselves). */
  render(result: OperationResult, preset: ProjectionPreset): Buffer;
  /** The `data` object of a result in a projection preset. */
  view(result: OperationResult, preset: ProjectionPreset): unknown;
  /**
   * Bytes built around a result's bytes in a preset (the MCP tool result that carries them),
   * memoised per answer in the same memo as projections, so they count in the node's cache budget.
   */
  derive(result: OperationResult, preset: ProjectionPreset, kind: string, build: (data: Buffer) => Buffer): Buffer;
};

/** Projected answers are content-addressed by ETag, so repeated presets cost one projection. */
export const RENDERED_BYTES_MAX = 32 * 1024 * 1024;

/** Bytes charged per memoised projection beyond its body: the LRU node, its key and the Buffer. */
const RENDERED_ENTRY_OVERHEAD_BYTES = 256;

/** `renderedMaxBytes`: the share of the node's cache budget of the memo of projections and derived bytes. */
/** Without `cursors`, cursors are sealed with a key of this process alone (tools, tests). */
export function createExecutor(
  given: Omit<OperationDeps, 'cursors'> & { cursors?: CursorSigner },
  options: { renderedMaxBytes?: number } = {},
): Executor {
  const deps: OperationDeps = { ...given, cursors: given.cursors ?? createEphemeralCursorSigner() };
  // Unknown parameters are refused rather than ignored, so a misspelt `count` never goes unnoticed.
  const strict = new WeakMap<Operation, Operation['input']>();
  const strictInput = (op: Operation) => {
    let schema = strict.get(op);
    if (!schema) strict.set(op, (schema = op.input.strict()));
    return schema;
  };
  const rendered = new LRUCache<string, Buffer>({
    maxSize: Math.max(1, options.renderedMaxBytes ?? RENDERED_BYTES_MAX),
    sizeCalculation: (bytes, key) => bytes.length + key.length + RENDERED_ENTRY_OVERHEAD_BYTES,
  });
  const render = (result: OperationResult, preset: ProjectionPreset): Buffer => {
    if (preset === 'full') return result.body;
    const key = `${result.etag}:${preset}`;
    let bytes = rendered.get(key);
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(project(JSON.parse(result.body.toString('utf8')), preset)));
      rendered.set(key, bytes);
    }
    return bytes;
  };
  return {
    parse(op, raw) {
      const result = strictInput(op).safeParse(raw);
      if (result.success) return result.data;
      const params = result.error.issues.map((issue) => ({
        name: issue.path.length > 0 ? issue.path.join('.') : '(input)',
        reason: issue.code === 'unrecognized_keys' ? `unknown parameter(s): ${issue.keys.join(', ')}` : issue.message,
      }));
      const summary = params.map((p) => `${p.name}: ${p.reason}`).join('; ');
      throw new AppError('invalid_request', `Invalid parameters: ${summary}`, { details: { params } });
    },

    async execute(op, input, options = {}) {
      const policy = deps.policies[op.name];
      try {
        // Stored as the REST envelope so a hit is sent without copying; `body` is a view of its data.
        const entry = await deps.cache.fetch(
          `op:${op.cacheKey(input)}`,
          policy,
          async (signal) => ({ data: await runFromPlatform(op, input, withSignal(deps, signal)) }),
          options.signal,
        );
        return {
          envelope: entry.body,
          body: dataOf(entry.body),
          etag: entry.etag,
          cacheStatus: entry.status,
          ageSeconds: entry.ageSeconds,
          maxAgeSeconds: Math.max(0, policy.ttlSeconds - entry.ageSeconds),
        };
      } catch (error) {
        // No stale answer of its own to fall back on: serve the one built from stale platform data.
        if (options.signal?.aborted || !(isAppError(error) && error.cause instanceof StaleAnswer)) throw error;
        const { value, ageSeconds } = error.cause;
        const entry = toEntry({ data: value }, 0);
        return { envelope: entry.body, body: dataOf(entry.body), etag: entry.etag, cacheStatus: 'stale', ageSeconds, maxAgeSeconds: 0 };
      }
    },

    render,
    view: (result, preset) => JSON.parse(render(result, preset).toString('utf8')),
    derive(result, preset, kind, build) {
      const key = `${result.etag}:${preset}:${kind}`;
      let bytes = rendered.get(key);
      if (!bytes) rendered.set(key, (bytes = build(render(result, preset))));
      return bytes;
    },
  };
}

const ENVELOPE_OPEN_BYTES = Buffer.byteLength('{"data":');

/** The `data` member's bytes inside `{"data":...}` (JSON.stringify of `{ data }` is exactly that). */
function dataOf(envelope: Buffer): Buffer {
  return envelope.subarray(ENVELOPE_OPEN_BYTES, envelope.length - 1);
}

/** Parameters that do not change which collection a cursor walks. */
const UNBOUND_PARAMS = new Set(['cursor', 'count', 'projection_preset']);

/** A cursor belongs to one operation and the parameters that define its collection (subject, order). */
export function cursorBinding(op: Operation, input: object): string {
  const defining = Object.entries(input)
    .filter(([name, value]) => !UNBOUND_PARAMS.has(name) && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${op.name}\n${JSON.stringify(defining)}`;
}

/** An answer built while the platform failed, from platform data served stale by the cache. */
class StaleAnswer {
  readonly value: unknown;
  readonly ageSeconds: number;
  constructor(value: unknown, ageSeconds: number) {
    this.value = value;
    this.ageSeconds = ageSeconds;
  }
}

/**
 * Runs the operation. When one of its platform reads was answered stale because the platform failed
 * (stale-if-error), the result must not be stored as a fresh answer: it fails retryably, so the
 * operation's own stale entry (or this StaleAnswer) is served and marked stale instead.
 */
async function runFromPlatform(op: Operation, input: Parameters<Operation['run']>[0], deps: OperationDeps): Promise<unknown> {
  let oldest: { ageSeconds: number } | undefined;
  const note = (result: { status: CacheResult['status']; ageSeconds: number }, policy: CachePolicy) => {
    if (servedOnError(result, policy) && (oldest === undefined || result.ageSeconds > oldest.ageSeconds)) oldest = result;
  };
  const cache: ResponseCache = {
    async fetch(key, policy, load, signal) {
      const result = await deps.cache.fetch(key, policy, load, signal);
      note(result, policy);
      return result;
    },
    async fetchValue(key, policy, load, signal) {
      const result = await deps.cache.fetchValue(key, policy, load, signal);
      note(result, policy);
      return result;
    },
    close: () => deps.cache.close(),
  };
  // A cursor is checked before anything else runs, so a forged or foreign one never costs a
  // platform request (runCollection opens it again to read its state).
  const binding = cursorBinding(op, input);
  const cursor = (input as { cursor?: unknown }).cursor;
  if (typeof cursor === 'string' && cursor !== '0' && cursor !== '') {
    if (!/^[A-Za-z0-9_.-]{1,600}$/.test(cursor) || (await deps.cursors.open(binding, cursor)) === undefined) throw invalidCursor();
  }
  const value = await op.run(input, { ...deps, cache, cursorBinding: binding });
  if (oldest === undefined) return value;
  throw new AppError('upstream_error', 'The platform answered with an error or an unexpected response.', {
    cause: new StaleAnswer(value, oldest.ageSeconds),
  });
}

/**
 * A stale result older than ttl + stale-while-revalidate can only come from stale-if-error.
 * Policies are whole seconds, so the floored age compares exactly.
 */
function servedOnError(result: { status: CacheResult['status']; ageSeconds: number }, policy: CachePolicy): boolean {
  return result.status === 'stale' && result.ageSeconds >= policy.ttlSeconds + policy.staleWhileRevalidateSeconds;
}
