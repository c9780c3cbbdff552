// OpenAPI paths of the media routes (media-routes.ts), kept apart from the registry-generated ones
// and merged into the document by openapi.ts.
import { ERROR_CODES, type ErrorCode } from '../errors.ts';

type JsonObject = Record<string, unknown>;

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

function errors(codes: ErrorCode[]): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0]).map(([status, list]) => [String(status), { description: `Error codes: ${list.join(', ')}`, content: problem }]));
}

const VIDEO_PROBLEMS: ErrorCode[] = ['invalid_request', 'unauthorized', 'private_content', 'geo_blocked', 'not_found', 'no_media', 'rate_limited', 'upstream_error', 'platform_unreachable', 'upstream_blocked', 'upstream_timeout', 'internal'];

const videoIdParam = { name: 'videoId', in: 'path', required: true, description: 'Platform video id (a string of digits).', schema: { type: 'string', pattern: '^[0-9]{1,25}$' } };
const formatParam = {
  name: 'format',
  in: 'query',
  required: false,
  description:
    'Which file: `best` (default: the largest watermark-free rendition), `h264` (the best H.264 rendition, for browsers without HEVC), a rendition `name` from the video\'s `attachment`, `audio` (the sound), `cover` (the cover image) or `photo-N` (the N-th photo of a photo post).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', default: 'best' },
};

export const MEDIA_PATHS: Record<string, JsonObject> = {
  '/v1/platform/videos/{videoId}/media': {
    get: {
      operationId: 'videoMedia',
      summary: 'Download a media file of a video',
      description:
        'Streams the file from the platform CDN with the cookies and Referer it demands. One `Range: bytes=…` is honoured (206); several ranges or a malformed one get the whole file. Each GET reserves its length from the key\'s hourly media byte budget (`REELAY_MEDIA_BYTES_PER_HOUR`); bytes not sent are given back. Either `Authorization: Bearer` or a signed `link` (from `media-links`) is required. Not available over MCP.',
      tags: ['videos'],
      security: [{ bearer: [] }, {}],
      parameters: [
        videoIdParam,
        formatParam,
        { name: 'link', in: 'query', required: false, description: 'A signed link token from `POST …/media-links`; replaces the API key.', schema: { type: 'string', maxLength: 512 } },
        { name: 'Range', in: 'header', required: false, description: 'One byte range, e.g. `bytes=0-1048575`.', schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The whole file.', content: { 'application/octet-stream': { schema: { type: 'string', contentEncoding: 'binary' } } } },
        '206': { description: 'The requested range (`Content-Range`).', content: { 'application/octet-stream': { schema: { type: 'string', contentEncoding: 'binary' } } } },
        ...errors([...VIDEO_PROBLEMS, 'invalid_link', 'link_expired', 'range_not_satisfiable']),
      },
    },
  },
  '/v1/platform/videos/{videoId}/media-links': {
    post: {
      operationId: 'videoMediaLink',
      summary: 'Get a short-lived signed link to a media file',
      description:
        'For clients that cannot send a header (a browser\'s `<video src>`): a URL of `…/media` that needs no API key, bound to this video and format, charged to the calling key, valid for `ttlSeconds` (default and maximum `REELAY_MEDIA_LINK_TTL_SECONDS`, 3600). An altered link is refused with `invalid_link`, an expired one with `link_expired`.',
      tags: ['videos'],
      parameters: [videoIdParam, formatParam],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: { format: formatParam.schema, ttlSeconds: { type: 'integer', minimum: 1, maximum: 86400 } },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'An AS2 Link to the file.',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/MediaLinkResponse' } },
          },
        },
        ...errors(VIDEO_PROBLEMS),
      },
    },
  },
};

/** The components the media paths refer to: the link answer, like every JSON 200, is a `$ref`. */
export const MEDIA_SCHEMAS = {
  MediaLink: {
    type: 'object',
    required: ['type', 'href', 'name', 'expires'],
    additionalProperties: false,
    properties: {
      '@context': { type: 'array', items: { type: 'string' } },
      type: { const: 'Link' },
      href: { type: 'string', format: 'uri', description: 'The file, without a key, until `expires`.' },
      name: { type: 'string', description: 'The format.' },
      mediaType: { type: 'string' },
      expires: { type: 'string', format: 'date-time' },
    },
  },
  MediaLinkResponse: {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data: { $ref: '#/components/schemas/MediaLink' } },
  },
};
