// Runs a registry operation for any transport: validates the raw input once, then answers from the
// response cache (coalesced, stale-aware) or runs the operation and stores its serialised `data`.
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Operation, OperationDeps, OperationResult, ProjectionPreset } from './types.ts';
import { project } from '../activitystreams/index.ts';

export type Executor = {
  /** Parses path+query (REST) or tool arguments (MCP); throws `invalid_request` naming each bad parameter. */
  parse(op: Operation, raw: Record<string, unknown>): z.infer<Operation['input']>;
  execute(op: Operation, input: z.infer<Operation['input']>): Promise<OperationResult>;
  /** The `data` object of a result in a projection preset (full returns the cached object as is). */
  view(result: OperationResult, preset: ProjectionPreset): unknown;
};

export function createExecutor(deps: OperationDeps): Executor {
  // Unknown parameters are refused rather than ignored, so a misspelt `count` never goes unnoticed.
  const strict = new WeakMap<Operation, Operation['input']>();
  const strictInput = (op: Operation) => {
    let schema = strict.get(op);
    if (!schema) strict.set(op, (schema = op.input.strict()));
    return schema;
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

    async execute(op, input) {
      const policy = deps.policies[op.name];
      const entry = await deps.cache.fetch(`op:${op.cacheKey(input)}`, policy, () => op.run(input, deps));
      return {
        body: entry.body,
        etag: entry.etag,
        cacheStatus: entry.status,
        ageSeconds: entry.ageSeconds,
        maxAgeSeconds: Math.max(0, policy.ttlSeconds - entry.ageSeconds),
      };
    },

    view(result, preset) {
      const data: unknown = JSON.parse(result.body.toString('utf8'));
      return preset === 'full' ? data : project(data, preset);
    },
  };
}
