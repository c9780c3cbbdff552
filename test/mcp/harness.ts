// Test harness for the tool server: the real server, store (SQLite in memory) and key service, over
// a fake executor that answers from the golden AS2 fixtures, listening on 127.0.0.1.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AppError } from '../../src/errors.ts';
import { createExecutor, type Executor } from '../../src/operations/execute.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';
import type { Operation, OperationDeps } from '../../src/operations/types.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { McpConfig } from '../../src/mcp/types.ts';
import { createKeyService, type KeyService } from '../../src/storage/keys.ts';
import { createSqliteStore } from '../../src/storage/sqlite-store.ts';
import type { Store } from '../../src/storage/types.ts';
import type { FastifyInstance } from 'fastify';
import { freePort } from '../helpers/ports.ts';
import { enforceContract } from '../helpers/contract.ts';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const golden = (name: string): unknown => JSON.parse(readFileSync(new URL(`${name}.json`, GOLDEN), 'utf8'));

/** The golden output each tool answers with; tools without a golden (no real sample) answer their "absent" error. */
export const GOLDEN_BY_TOOL: Record<string, string> = {
  platform_get_user: 'user-detail',
  platform_get_user_videos: 'user-videos',
  platform_get_tag_videos: 'tag-videos-from-search',
  platform_get_user_reposts: 'user-videos',
  platform_get_user_likes: 'user-videos',
  platform_get_user_followers: 'user-followers',
  platform_get_video: 'video-detail',
  platform_get_video_comments: 'video-comments',
  platform_get_comment_replies: 'comment-replies',
};

/** Fake executor: real parse and view (the REST ones), execute answers fixtures or scripted errors. */
export function createFakeExecutor(calls: Array<{ tool: string; input: unknown }> = []): Executor {
  const real = createExecutor({} as OperationDeps);
  return {
    parse: real.parse,
    render: real.render,
    view: real.view,
    derive: real.derive,
    async execute(op: Operation, input: Record<string, unknown>) {
      calls.push({ tool: op.tool, input });
      if (input.username === 'missing') throw new AppError('not_found', 'User missing was not found.');
      if (input.username === 'secret') throw new AppError('private_account', 'The account secret is private.');
      if (input.username === 'crash') throw new Error('database password is hunter2');
      if (input.username === 'slowpoke') throw new AppError('upstream_timeout', 'The platform did not answer in time.');
      if (op.tool === 'platform_get_user_collections') throw new AppError('not_found', `User ${input.username} has no public collections.`);
      if (op.tool === 'platform_get_user_live') throw new AppError('not_live', `User ${input.username} is not live.`);
      if (op.tool === 'platform_get_video_transcript') {
        throw new AppError('no_transcript', `Video ${input.videoId} has no transcript in ${input.language}.`, { details: { languages: ['en-US'] } });
      }
      const envelope = Buffer.from(JSON.stringify({ data: golden(GOLDEN_BY_TOOL[op.tool]) }));
      const body = envelope.subarray('{"data":'.length, envelope.length - 1);
      const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
      return { envelope, body, etag, cacheStatus: 'miss' as const, ageSeconds: 0, maxAgeSeconds: 60 };
    },
  } as Executor;
}

export { freePort } from '../helpers/ports.ts';

export type Harness = {
  url: string;
  app: FastifyInstance;
  store: Store;
  keys: KeyService;
  /** A valid API key of the account `alice`. */
  key: string;
  accountId: string;
  logs: Array<{ level: string; obj: object; msg?: string }>;
  calls: Array<{ tool: string; input: unknown }>;
  close(): Promise<void>;
};

export async function startHarness(options: { config?: Partial<McpConfig>; clock?: () => Date; listen?: boolean } = {}): Promise<Harness> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const store = createSqliteStore({ path: ':memory:' });
  await store.migrate();
  const keys = createKeyService({ store, clock: options.clock });
  const { key, record } = await keys.create({ accountName: 'alice', name: 'alice laptop' });
  const logs: Harness['logs'] = [];
  const log = (level: string) => (obj: object, msg?: string) => void logs.push({ level, obj, msg });
  const calls: Harness['calls'] = [];
  const config: McpConfig = {
    publicUrl: url,
    restBaseUrl: 'http://127.0.0.1:1',
    allowedOrigins: ['http://localhost:6274'],
    allowedHosts: [`localhost:${port}`],
    accessTokenTtlSeconds: 3600,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    codeTtlSeconds: 60,
    serviceName: 'reelay',
    ...options.config,
  };
  const app = createMcpServer({
    executor: createFakeExecutor(calls),
    operations: OPERATIONS,
    keys,
    store,
    config,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    clock: options.clock,
  });
  // Every tool result this server sends is checked against its schema.
  const contract = enforceContract(app, 'mcp');
  if (options.listen !== false) await app.listen({ port, host: '127.0.0.1' });
  else await app.ready();
  return {
    url,
    app,
    store,
    keys,
    key,
    accountId: record.accountId,
    logs,
    calls,
    async close() {
      await app.close();
      await store.close();
      contract.assertKept();
    },
  };
}
