// The ActivityStreams mappers' public surface: pure functions from raw platform JSON to AS2.
export type * from './types.ts';
export { toVideo } from './to-video.ts';
export { toPerson } from './to-person.ts';
export { toAudio } from './to-audio.ts';
export { toNote } from './to-note.ts';
export { toPlaylist } from './to-playlist.ts';
export { toLive } from './to-live.ts';
export { toTranscript, transcriptId } from './to-transcript.ts';
export { toCollectionPage, withContext, AS_NAMESPACE } from './page.ts';
export { videoUrl, profileUrl, tagUrl, liveUrl, musicUrl, playlistUrl, commentUrl } from './urls.ts';
export {
  TRANSCRIPT_LANGUAGES,
  type TranscriptLanguage,
  toPlatformLanguage,
  fromPlatformLanguage,
  isTranscriptLanguage,
} from './languages.ts';
export { socialContext } from './context.ts';
export { REELAY_CLASSES, REELAY_TERMS, REELAY_VOCAB, REELAY_VOCAB_ONTOLOGY, termIri, vocabularyDocument } from './vocabulary.ts';
export { project, type Preset } from './projection.ts';
