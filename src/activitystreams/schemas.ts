// The zod schema of every object reelay returns, as the mappers produce it (projection preset
// `full`). They are the single source of the TypeScript types (types.ts), the OpenAPI components,
// the MCP outputSchemas and the suites' validation. Presence rules: docs/contract.md.
import { z } from 'zod';
import { AS_NAMESPACE } from './page.ts';
import { TRANSCRIPT_LANGUAGES } from './languages.ts';

/** Counts, sizes, pixels, seconds: JSON integers, never strings or NaN. */
const count = z.int().nonnegative();
/** Ids and links reelay builds itself (canonical pages, collection URLs): absolute URLs. */
const link = z.url();
/** Files on the platform's CDN: passed through as the platform sends them, so not re-validated. */
const fileUrl = z.string().min(1);
const timestamp = z.iso.datetime().describe('ISO 8601 UTC with milliseconds.');

export const ImageSchema = z.strictObject({
  type: z.literal('Image'),
  url: fileUrl,
  width: count.optional(),
  height: count.optional(),
});

export const LinkSchema = z.strictObject({
  type: z.literal('Link'),
  href: link,
  rel: z.string().optional().describe('`me` in the tag-videos dialect.'),
});

export const PlaceSchema = z.strictObject({ type: z.literal('Place'), name: z.string() });

const tagBase = { type: z.literal('Tag'), id: link, name: z.string().describe('Hashtag without #.'), href: link };
export const TagSchema = z.strictObject({ ...tagBase, internalId: z.string().optional() });
export const TagTagDialectSchema = z.strictObject({ ...tagBase, entityId: z.string().optional() });

/** One rendition of a video or a live stream; `headers` are what a client sends to fetch it. */
export const MediaFileSchema = z.strictObject({
  type: z.literal('Video'),
  name: z.string(),
  url: z.array(fileUrl),
  mediaType: z.string(),
  codec: z.string().optional(),
  width: count.optional(),
  height: count.optional(),
  bitrate: count.optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const personBase = {
  type: z.literal('Person'),
  id: link,
  url: link,
  preferredUsername: z.string(),
  name: z.string().optional(),
  summary: z.string().optional(),
  isPrivate: z.boolean().optional(),
  isVerified: z.boolean().optional(),
  isLive: z.boolean().optional(),
  published: timestamp.optional(),
  hasLikes: z.boolean().optional(),
  hasPlaylists: z.boolean().optional(),
  followerCount: count.optional(),
  followingCount: count.optional(),
  likeCount: count.optional(),
  attachment: z.array(LinkSchema).describe('Biography links.'),
  icon: ImageSchema.optional().describe('The largest avatar.'),
  image: z.array(ImageSchema).describe('Every avatar size, smallest first.'),
};
export const PersonSchema = z.strictObject({
  ...personBase,
  userId: z.string().optional(),
  internalId: z.string().optional(),
  videoCount: count.optional(),
});
export const PersonTagDialectSchema = z.strictObject({
  ...personBase,
  entityId: z.string().optional(),
  mediaCount: count.optional(),
  likedCount: count.optional(),
  language: z.string().optional(),
});

/** The author of a sound: the platform gives only a display name. */
export const AudioAuthorSchema = z.strictObject({ type: z.literal('Person'), name: z.string() });

const audioBase = {
  type: z.literal('Audio'),
  id: link.describe('The sound page.'),
  url: fileUrl.describe('The audio file when the platform gives it, else the sound page.'),
  name: z.string().optional(),
  mediaType: z.string().optional(),
  duration: count.optional(),
  album: z.string().optional(),
  videoCount: count.optional(),
  attributedTo: AudioAuthorSchema.optional(),
  icon: ImageSchema.optional(),
  image: z.array(ImageSchema),
};
export const AudioSchema = z.strictObject(audioBase);
export const AudioTagDialectSchema = z.strictObject({
  ...audioBase,
  entityId: z.string(),
  isOriginal: z.boolean().optional(),
  isCopyrighted: z.boolean().optional(),
});

const videoBase = {
  type: z.literal('Video'),
  id: link,
  url: link,
  published: timestamp.optional(),
  duration: count.optional(),
  viewCount: count.optional(),
  likeCount: count.optional(),
  commentCount: count.optional(),
  repostCount: count.optional(),
  shareCount: count.optional(),
  saveCount: count.optional(),
  image: ImageSchema.optional().describe('Static cover.'),
  preview: ImageSchema.optional().describe('Animated cover, else the original-ratio cover.'),
  icon: ImageSchema.optional().describe('Original-ratio cover.'),
  attachment: z
    .array(z.union([MediaFileSchema, ImageSchema]))
    .describe('Renditions of a video (MediaFile), or the photos of a photo post (Image).'),
};
export const VideoSchema = z.strictObject({
  ...videoBase,
  internalId: z.string(),
  summary: z.string().optional().describe('Caption.'),
  attributedTo: PersonSchema,
  tag: z.array(TagSchema),
  audio: AudioSchema.optional(),
});
/** The tag-videos response variant of the spec: entityId, content, language, isSponsored, location. */
export const VideoTagDialectSchema = z.strictObject({
  ...videoBase,
  entityId: z.string(),
  content: z.string().optional().describe('Caption.'),
  language: z.string().optional(),
  isSponsored: z.boolean(),
  location: PlaceSchema.optional(),
  attributedTo: PersonTagDialectSchema,
  tag: z.array(TagTagDialectSchema),
  audio: AudioTagDialectSchema.optional(),
});

export const NoteSchema = z.strictObject({
  type: z.literal('Note'),
  id: link,
  url: link,
  internalId: z.string(),
  content: z.string(),
  published: timestamp.optional(),
  likeCount: count.optional(),
  replyCount: count.optional(),
  language: z.string().optional(),
  status: z.string().optional().describe('The platform comment status, verbatim ("1" = published).'),
  isPinned: z.boolean(),
  isLiked: z.boolean(),
  attributedTo: PersonSchema,
  inReplyTo: link.describe('The video the comment belongs to.'),
});

/** A playlist: an OrderedCollection of videos. */
export const PlaylistSchema = z.strictObject({
  type: z.literal('OrderedCollection'),
  id: link,
  internalId: z.string(),
  name: z.string().optional(),
  totalItems: count.optional(),
  attributedTo: PersonSchema.optional(),
  image: ImageSchema.optional(),
});

export const LiveVideoSchema = z.strictObject({
  type: z.literal('Video'),
  id: link,
  url: link,
  internalId: z.string().optional(),
  isLive: z.literal(true),
  summary: z.string().optional(),
  published: timestamp.optional(),
  viewCount: count.optional(),
  viewerCount: count.optional(),
  attributedTo: PersonSchema.optional(),
  image: ImageSchema.optional(),
  attachment: z.array(MediaFileSchema).describe('One file per stream quality and protocol, best first.'),
});

export const TranscriptSchema = z.strictObject({
  type: z.literal('Document'),
  id: link.describe('The video.'),
  url: fileUrl.describe('The subtitle file.'),
  mediaType: z.literal('text/vtt'),
  language: z.enum(TRANSCRIPT_LANGUAGES),
  content: z.string().describe('WebVTT text.'),
  size: count.describe('Bytes of content in UTF-8.'),
  source: z.string().optional().describe('ASR = speech recognition, MT = machine translation, LC = the creator\'s captions.'),
});

/** `@context` of every object directly under `data`: the AS2 namespace, then reelay's own. */
export const ContextSchema = z
  .array(z.string())
  .length(2)
  .refine((value) => value[0] === AS_NAMESPACE, `the first @context entry is ${AS_NAMESPACE}`)
  .describe(`["${AS_NAMESPACE}", "<social namespace URL>"]`);

function withContext<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  return z.strictObject({ '@context': ContextSchema, ...schema.shape });
}

function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    '@context': ContextSchema,
    type: z.literal('OrderedCollectionPage'),
    partOf: link,
    totalItems: count,
    itemCount: count,
    cursor: z.string(),
    nextCursor: z.string().optional().describe('Absent on the last page.'),
    next: link.optional().describe('Absent on the last page.'),
    orderedItems: z.array(item),
  });
}

export const PersonDocumentSchema = withContext(PersonSchema);
export const VideoDocumentSchema = withContext(VideoSchema);
export const LiveVideoDocumentSchema = withContext(LiveVideoSchema);
export const TranscriptDocumentSchema = withContext(TranscriptSchema);
export const VideoPageSchema = pageOf(VideoSchema);
export const VideoTagDialectPageSchema = pageOf(VideoTagDialectSchema);
export const NotePageSchema = pageOf(NoteSchema);
export const PersonPageSchema = pageOf(PersonSchema);
export const PlaylistPageSchema = pageOf(PlaylistSchema);

/** Component names (OpenAPI `components.schemas`, MCP `$defs`), nested objects first. */
export const NAMED_SCHEMAS = {
  Image: ImageSchema,
  Link: LinkSchema,
  Place: PlaceSchema,
  Tag: TagSchema,
  TagTagDialect: TagTagDialectSchema,
  MediaFile: MediaFileSchema,
  Person: PersonSchema,
  PersonTagDialect: PersonTagDialectSchema,
  AudioAuthor: AudioAuthorSchema,
  Audio: AudioSchema,
  AudioTagDialect: AudioTagDialectSchema,
  Video: VideoSchema,
  VideoTagDialect: VideoTagDialectSchema,
  Note: NoteSchema,
  Playlist: PlaylistSchema,
  LiveVideo: LiveVideoSchema,
  Transcript: TranscriptSchema,
  PersonDocument: PersonDocumentSchema,
  VideoDocument: VideoDocumentSchema,
  LiveVideoDocument: LiveVideoDocumentSchema,
  TranscriptDocument: TranscriptDocumentSchema,
  VideoPage: VideoPageSchema,
  VideoTagDialectPage: VideoTagDialectPageSchema,
  NotePage: NotePageSchema,
  PersonPage: PersonPageSchema,
  PlaylistPage: PlaylistPageSchema,
} as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS;

/** What an operation answers under `data` (full preset); operations name one of these. */
export type ResultSchemaName = Extract<SchemaName, `${string}Document` | `${string}Page`>;
