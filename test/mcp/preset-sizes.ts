// What each tool answers with its default arguments, in every preset, on the emulator's data (seed
// 1): JSON bytes and tokens (o200k_base, the GPT-4o/GPT-5 encoding, via gpt-tokenizer). Shared by
// `npm run measure:mcp` (the table in docs/mcp.md) and the test that bounds minimal against full.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Stack } from '../helpers/stack.ts';

export const PRESETS = ['full', 'standard', 'minimal'] as const;
export type PresetName = (typeof PRESETS)[number];

/** A count small enough for an agent to browse with; the table shows minimal at this page size too. */
export const BROWSE_COUNT = 10;

export type ToolCall = {
  tool: string;
  /** Only the required arguments: everything else takes its default. */
  args: Record<string, unknown>;
  /** The REST path serving the same input. */
  path: string;
  /** Whether the tool answers a page (and so takes `count`). */
  paged: boolean;
};

/** Every tool with its default arguments, on the subjects of the emulator's manifest. */
export function defaultCalls(m: any): ToolCall[] {
  const { id, commentId } = m.videos.withReplies;
  const transcript = m.videos.withTranscripts;
  const user = m.users.public;
  return [
    { tool: 'platform_get_user', args: { username: user }, path: `/v1/platform/users/${user}`, paged: false },
    { tool: 'platform_get_user_videos', args: { username: user }, path: `/v1/platform/users/${user}/videos`, paged: true },
    { tool: 'platform_get_user_reposts', args: { username: m.users.withReposts }, path: `/v1/platform/users/${m.users.withReposts}/reposts`, paged: true },
    { tool: 'platform_get_user_likes', args: { username: user }, path: `/v1/platform/users/${user}/likes`, paged: true },
    { tool: 'platform_get_user_collections', args: { username: m.users.withPlaylists }, path: `/v1/platform/users/${m.users.withPlaylists}/collections`, paged: true },
    { tool: 'platform_get_user_followers', args: { username: user }, path: `/v1/platform/users/${user}/followers`, paged: true },
    { tool: 'platform_get_user_live', args: { username: m.users.live }, path: `/v1/platform/users/${m.users.live}/live`, paged: false },
    { tool: 'platform_get_video', args: { videoId: id }, path: `/v1/platform/videos/${id}`, paged: false },
    { tool: 'platform_get_video_comments', args: { videoId: id }, path: `/v1/platform/videos/${id}/comments`, paged: true },
    { tool: 'platform_get_comment_replies', args: { videoId: id, commentId }, path: `/v1/platform/videos/${id}/comments/${commentId}/replies`, paged: true },
    {
      tool: 'platform_get_video_transcript',
      args: { videoId: transcript.id, language: transcript.languages[0] },
      path: `/v1/platform/videos/${transcript.id}/transcripts/${transcript.languages[0]}`,
      paged: false,
    },
    { tool: 'platform_get_tag_videos', args: { tagName: m.tags.popular }, path: `/v1/platform/tags/${m.tags.popular}`, paged: true },
  ];
}

export type Size = { bytes: number; tokens: number };
export type ToolSizes = {
  call: ToolCall;
  /** Items on the default page (undefined for a single resource). */
  items?: number;
  presets: Record<PresetName, Size>;
  /** minimal with count = BROWSE_COUNT (paged tools only). */
  browse?: Size;
};

/** The `data` bytes of a REST answer: exactly what a tool call carries as structuredContent. */
async function dataJson(stack: Stack, path: string): Promise<string> {
  const answer = await stack.get(path);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
  return answer.body.slice('{"data":'.length, -1);
}

const sizeOf = (json: string): Size => ({ bytes: Buffer.byteLength(json), tokens: countTokens(json) });
const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

export async function measureTools(stack: Stack): Promise<ToolSizes[]> {
  const rows: ToolSizes[] = [];
  for (const call of defaultCalls(stack.emulator.manifest)) {
    const presets = {} as Record<PresetName, Size>;
    let items: number | undefined;
    for (const preset of PRESETS) {
      const json = await dataJson(stack, withQuery(call.path, `projection_preset=${preset}`));
      presets[preset] = sizeOf(json);
      if (call.paged) items = (JSON.parse(json) as { orderedItems: unknown[] }).orderedItems.length;
    }
    const browse = call.paged ? sizeOf(await dataJson(stack, withQuery(call.path, `projection_preset=minimal&count=${BROWSE_COUNT}`))) : undefined;
    rows.push({ call, items, presets, browse });
  }
  return rows;
}

const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const thousands = (n: number) => n.toLocaleString('en-US');

/** The Markdown table of docs/mcp.md. */
export function sizeTable(rows: ToolSizes[]): string {
  const lines = [
    `| Tool | default page | full (default) | standard | minimal | minimal bytes / full | minimal, count ${BROWSE_COUNT} |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { call, items, presets, browse } of rows) {
    const { full, standard, minimal } = presets;
    lines.push(
      `| \`${call.tool}\` | ${items ?? '–'} | ${thousands(full.tokens)} | ${thousands(standard.tokens)} | ${thousands(minimal.tokens)} | ${percent(minimal.bytes, full.bytes)} | ${browse ? thousands(browse.tokens) : '–'} |`,
    );
  }
  return lines.join('\n');
}
