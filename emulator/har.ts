// Replay of recorded platform traffic from a HAR 1.2 file. Requests match on method, path and
// the query parameters that name the resource and the page; signatures, tokens and fingerprint
// parameters are ignored. Several recordings of one key are served in turn.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const MATCH_PARAMS = [
  'secUid', 'uniqueId', 'itemId', 'aweme_id', 'item_id', 'comment_id', 'challengeID', 'challengeName', 'mixId',
  'scene', 'cursor', 'minCursor', 'maxCursor', 'roomID', 'room_id', 'post_item_list_request_type',
] as const;

const HarFile = z.object({
  log: z.object({
    entries: z.array(
      z.object({
        request: z.object({ method: z.string(), url: z.string() }),
        response: z.object({
          status: z.number(),
          headers: z.array(z.object({ name: z.string(), value: z.string() })).default([]),
          content: z.object({ text: z.string().optional(), encoding: z.string().optional(), mimeType: z.string().optional() }),
        }),
      }),
    ),
  }),
});

export type Recorded = { status: number; headers: Array<[string, string]>; body: Buffer };
export type Replay = { match(method: string, path: string, query: URLSearchParams): Recorded | undefined; size: number };

/** Hop-by-hop and encoding headers describe the recorded transfer, not this one. */
const DROP_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

export function replayKey(method: string, path: string, query: URLSearchParams): string {
  const parts = MATCH_PARAMS.filter((p) => query.has(p)).map((p) => `${p}=${query.get(p)}`);
  return `${method.toUpperCase()} ${path} ${parts.join('&')}`;
}

export function createReplay(har: unknown): Replay {
  const parsed = HarFile.parse(har);
  const table = new Map<string, Recorded[]>();
  for (const entry of parsed.log.entries) {
    const url = new URL(entry.request.url);
    const key = replayKey(entry.request.method, url.pathname, url.searchParams);
    const { content } = entry.response;
    const body = Buffer.from(content.text ?? '', content.encoding === 'base64' ? 'base64' : 'utf8');
    const headers = entry.response.headers
      .filter((h) => !DROP_HEADERS.has(h.name.toLowerCase()))
      .map((h): [string, string] => [h.name, h.value]);
    const list = table.get(key) ?? [];
    list.push({ status: entry.response.status, headers, body });
    table.set(key, list);
  }
  const turns = new Map<string, number>();
  return {
    size: parsed.log.entries.length,
    match(method, path, query) {
      const key = replayKey(method, path, query);
      const list = table.get(key);
      if (!list) return undefined;
      const turn = turns.get(key) ?? 0;
      turns.set(key, turn + 1);
      return list[turn % list.length];
    },
  };
}

export function loadReplay(file: string): Replay {
  return createReplay(JSON.parse(readFileSync(file, 'utf8')));
}
