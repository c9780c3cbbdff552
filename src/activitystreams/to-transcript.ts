// Maps one subtitle track and its WebVTT text to an AS2 Document.
// Its id is the video's URL with a `#transcript-{language}` fragment: a node of its own (not the
// video's, whose statements would merge with it in RDF), stable across deployments, and the video's
// URL is what remains once the fragment is removed.
import type { RawSubtitleInfo } from '../upstream/raw.ts';
import type { Document } from './types.ts';
import type { TranscriptLanguage } from './languages.ts';
import { prune, text } from './values.ts';

export function transcriptId(videoUrl: string, language: TranscriptLanguage): string {
  return `${videoUrl}#transcript-${language}`;
}

/** `source`: ASR = speech recognition, MT = machine translation, LC = the creator's own captions. */
export function toTranscript(input: {
  videoUrl: string;
  subtitle: RawSubtitleInfo;
  vtt: string;
  language: TranscriptLanguage;
}): Document {
  return prune({
    type: 'Document' as const,
    id: transcriptId(input.videoUrl, input.language),
    url: input.subtitle.Url,
    mediaType: 'text/vtt' as const,
    language: input.language,
    content: input.vtt,
    size: Buffer.byteLength(input.vtt, 'utf8'),
    source: text(input.subtitle.Source),
  });
}
