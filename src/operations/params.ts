// Input schemas shared by the operations: usernames, ids, counts, cursors, orders, presets.
// Values arrive as strings from REST and as JSON values from MCP; both are accepted, nothing is clamped.
import { z } from 'zod';
import { TRANSCRIPT_LANGUAGES } from '../activitystreams/languages.ts';

/** Platform usernames: letters, digits, `_` and `.`, up to 24 characters; a leading `@` is accepted. */
export const username = z
  .string()
  .trim()
  .transform((value) => (value.startsWith('@') ? value.slice(1) : value))
  .pipe(
    z
      .string()
      .min(1, 'username is empty')
      .max(24, 'username is longer than 24 characters')
      .regex(/^[A-Za-z0-9_.]+$/, 'username may contain only letters, digits, "_" and "."'),
  )
  .transform((value) => value.toLowerCase())
  .describe('Platform username, with or without a leading @.');

/**
 * Platform ids are decimal strings beyond 2^53: never numbers. Leading zeros are dropped, so `007`
 * and `7` are one id, one cache entry and one platform request.
 */
const digits = (what: string) =>
  z
    .string()
    .regex(/^[0-9]{1,25}$/, `${what} must be a string of digits`)
    .transform((value) => value.replace(/^0+(?=\d)/, ''))
    .describe(`Platform ${what} (a string of digits).`);

export const videoId = digits('video id');
export const commentId = digits('comment id');

/** Hashtag names: letters (any script), digits and `_`; a leading `#` is accepted. */
export const tagName = z
  .string()
  .trim()
  .transform((value) => (value.startsWith('#') ? value.slice(1) : value))
  .pipe(
    z
      .string()
      .min(1, 'tag name is empty')
      .max(100, 'tag name is longer than 100 characters')
      .regex(/^[\p{L}\p{N}\p{M}_]+$/u, 'tag name may contain only letters, digits and "_"'),
  )
  .transform((value) => value.toLowerCase())
  .describe('Hashtag name without #.');

/** `count`: an integer in [1, max]; out of range is an error, never clamped. */
export function count(max: number, defaultValue: number) {
  const integer = z.number().int('count must be an integer').min(1, 'count must be at least 1').max(max, `count must be at most ${max}`);
  return z
    .union([integer, z.string().regex(/^-?[0-9]+$/, 'count must be an integer').transform(Number).pipe(integer)])
    .default(defaultValue)
    .describe(`Items per page, 1 to ${max} (default ${defaultValue}).`);
}

export const cursor = z
  .string()
  .max(512, 'cursor is too long')
  .default('0')
  .describe('Opaque cursor: "0" for the first page, then the nextCursor of the previous page.');

export const order = z
  .enum(['newest', 'popular', 'oldest'])
  .default('newest')
  .describe('Sort order: newest (default), popular or oldest.');

export const projectionPreset = z
  .enum(['minimal', 'standard', 'full'])
  .optional()
  .describe(
    'How much of each object to return: minimal (ids, names, text, counts, cursors), standard, or full (everything).',
  );

export const language = z.enum(TRANSCRIPT_LANGUAGES).describe('Transcript language (BCP 47 code).');

export const format = z.enum(['json', 'vtt']).optional().describe('json (default) or vtt for the raw WebVTT file.');
