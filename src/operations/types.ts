// The operation registry's shapes: each operation is declared once (name, input schema, REST path,
// MCP tool, cache policy, handler); REST routes, MCP tools and OpenAPI are generated from it.
import type { z } from 'zod';
import type { PlatformClient } from '../upstream/types.ts';
import type { ResponseCache, CachePolicy } from '../cache/types.ts';
import type { CursorSigner } from './cursor-keys.ts';
import type { ResultSchemaName } from '../activitystreams/schemas.ts';

export type ProjectionPreset = 'minimal' | 'standard' | 'full';

export type OperationConfig = {
  /** Public base URL of the REST API, no trailing slash; `partOf` and `next` links are built on it. */
  publicBaseUrl: string;
  /** The social vocabulary namespace of `@context`. */
  socialNsUrl: string;
  /** Canonical platform origin for entity URLs (ids), e.g. https://www.tiktok.com. */
  webOrigin: string;
};

export type OperationDeps = {
  /** Bound to `signal` while an operation runs: its platform requests stop when the signal aborts. */
  client: PlatformClient;
  /** Aborts when nobody waits for this work any more (request deadline passed, client gone). */
  signal?: AbortSignal;
  /** Seals and opens collection cursors (cursor-keys.ts). */
  cursors: CursorSigner;
  /** What the cursors of the call being run are sealed to; set by the executor (cursorBinding). */
  cursorBinding?: string;
  cache: ResponseCache;
  policies: Record<string, CachePolicy>;
  config: OperationConfig;
};

/** Where the data came from, for Cache-Status/Age/ETag headers. */
export type OperationResult = {
  /** `{"data": ...}`: the REST answer, exactly as cached. */
  envelope: Buffer;
  /** JSON bytes of the `data` member (a view into `envelope`). */
  body: Buffer;
  etag: string;
  cacheStatus: 'hit' | 'miss' | 'stale';
  ageSeconds: number;
  maxAgeSeconds: number;
};

export type Operation<S extends z.ZodObject = z.ZodObject> = {
  /** Stable internal name, also the cache-policy key (`userVideos`). */
  name: string;
  /** MCP tool name (`platform_get_user_videos`). */
  tool: string;
  title: string;
  /** Tells a person and a model when to use it. */
  description: string;
  /** Fastify-style path (`/v1/platform/users/:username/videos`). */
  path: string;
  /** Extra paths serving the same operation. */
  aliases?: string[];
  /** Names in `input` that come from the path; the rest are query parameters. */
  pathParams: readonly string[];
  /** Path and query parameters together; parsing it is the only validation. */
  input: S;
  /** Item type of a collection page, or undefined for a single resource. */
  itemType?: 'Video' | 'Note' | 'OrderedCollection' | 'Person';
  resultType: string;
  /** The schema of the `data` it answers (full preset), in activitystreams/schemas.ts. */
  output: ResultSchemaName;
  /** Runs the operation, returning the AS2 `data` object (never the envelope). */
  run(input: z.infer<S>, deps: OperationDeps): Promise<unknown>;
  /** The cache key of a normalised input; equal inputs share answers. */
  cacheKey(input: z.infer<S>): string;
};
