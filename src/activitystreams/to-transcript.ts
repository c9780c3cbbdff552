// Maps one subtitle track and its WebVTT text to an AS2 Document.
import type { RawSubtitleInfo } from '../upstream/raw.ts';
import type { Document } from './types.ts';
import type { TranscriptLanguage } from './languages.ts';
import { prune, text } from './values.ts';

/** `source`: ASR = speech recognition, MT = machine translation, LC = the creator's own captions. */
export function toTranscript(input: {
  videoUrl: string;
  subtitle: RawSubtitleInfo;
  vtt: string;
  language: TranscriptLanguage;
}): Document {
  return prune({
    type: 'Document' as const,
    id: input.videoUrl,
    url: input.subtitle.Url,
    mediaType: 'text/vtt' as const,
    language: input.language,
    content: input.vtt,
    size: Buffer.byteLength(input.vtt, 'utf8'),
    source: text(input.subtitle.Source),
  });
}
