// The zod schemas of what an error looks like on the wire: the REST problem document (RFC 9457 plus
// `code`, `requestId` and the error's details) and the MCP tool error result. Rendering: errors.ts
// callers, http/problem.ts and mcp/tools.ts.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors.ts';
import { TRANSCRIPT_LANGUAGES } from './activitystreams/languages.ts';

const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
const code = z.enum(CODES).describe('Stable error code: switch on this.');

/**
 * The machine-readable details an AppError may carry, the same on both edges: which parameters were
 * wrong and why, the transcript languages that do exist, the deadline that passed, and the state of
 * each store when the node is not ready.
 */
export const ERROR_DETAILS = {
  params: z
    .array(z.strictObject({ name: z.string(), reason: z.string() }))
    .optional()
    .describe('invalid_request, invalid_cursor: each offending parameter and why.'),
  languages: z.array(z.enum(TRANSCRIPT_LANGUAGES)).optional().describe('no_transcript: the languages the video has.'),
  deadlineMs: z.int().positive().optional().describe('upstream_timeout when the request deadline passed: that deadline.'),
  database: z.enum(['ok', 'down']).optional().describe('unavailable (readiness): the database.'),
  redis: z.enum(['ok', 'down']).optional().describe('unavailable (readiness): Redis, when configured.'),
  available: z.array(z.string()).optional().describe('not_acceptable: the media types the route answers.'),
  formats: z.array(z.string()).optional().describe('no_media, invalid_request (media): the file formats the video has.'),
  size: z.int().nonnegative().optional().describe('range_not_satisfiable: the size of the file in bytes.'),
  budget: z.literal('media-bytes').optional().describe('rate_limited by the media byte budget (absent: the request budget).'),
  limitBytes: z.int().nonnegative().optional().describe('rate_limited (media-bytes): bytes a key may download per window.'),
  remainingBytes: z.int().nonnegative().optional().describe('rate_limited (media-bytes): bytes left in this window.'),
  requestedBytes: z.int().nonnegative().optional().describe('rate_limited (media-bytes): the length the download needed.'),
  expired: z.iso.datetime().optional().describe('link_expired: when the media link expired.'),
  minimum: z.string().optional().describe('invalid_request (a watch\'s every): the shortest interval allowed, e.g. "1m".'),
  cdnStatus: z.int().optional().describe('upstream_error from the platform CDN: its last HTTP status.'),
};

export const ProblemSchema = z.strictObject({
  type: z.url().describe('The error table entry on /docs.'),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string().describe('What went wrong, for a person; never internal text.'),
  instance: z.string().describe('The request path.'),
  code,
  requestId: z.string(),
  retryAfterSeconds: z.number().nonnegative().optional().describe('Also sent as Retry-After.'),
  ...ERROR_DETAILS,
});

/** `structuredContent` of an MCP tool result with `isError: true`. */
export const ToolErrorSchema = z.strictObject({
  code,
  message: z.string().describe('What went wrong, for a person or a model; never internal text.'),
  ...ERROR_DETAILS,
});
