// Operation 11: the transcript (subtitles) of a video in one language, as a Document.
import { z } from 'zod';
import { fromPlatformLanguage, toPlatformLanguage, toTranscript, withContext } from '../activitystreams/index.ts';
import { AppError } from '../errors.ts';
import type { Operation } from './types.ts';
import { cachedUpstream } from './shared.ts';
import { canonicalVideoUrl, getVideoCached } from './get-video.ts';
import { format, language, projectionPreset, videoId } from './params.ts';

const input = z.object({ videoId, language, format, projection_preset: projectionPreset });

export const getVideoTranscript: Operation<typeof input> = {
  name: 'transcript',
  tool: 'platform_get_video_transcript',
  title: 'Get the transcript of a video',
  description:
    'The subtitles of a video in one language as WebVTT text inside a Document (source ASR = speech recognition, MT = machine translation). Answers no_transcript, listing the languages that exist, when there is none in that language.',
  path: '/v1/platform/videos/:videoId/transcripts/:language',
  pathParams: ['videoId', 'language'],
  input,
  resultType: 'Document',
  output: 'TranscriptDocument',
  cacheKey: (i) => `transcript:${i.videoId}:${i.language}`,
  async run(i, deps) {
    const video = await getVideoCached(deps, i.videoId);
    const subtitles = (video.data.video?.subtitleInfos ?? []).filter((s) => !s.Format || s.Format === 'webvtt');
    const wanted = toPlatformLanguage(i.language);
    // ASR (the spoken language) beats machine translation when both exist for a language.
    const ranked = subtitles
      .filter((s) => s.LanguageCodeName === wanted)
      .sort((a, b) => Number(b.Source === 'ASR') - Number(a.Source === 'ASR'));
    const subtitle = ranked[0];
    if (!subtitle) {
      const languages = [...new Set(subtitles.map((s) => fromPlatformLanguage(s.LanguageCodeName)).filter(Boolean))];
      throw new AppError('no_transcript', `Video ${i.videoId} has no transcript in ${i.language}.`, {
        details: { languages },
      });
    }
    const vtt = await cachedUpstream(deps, 'transcript', `subtitle:${i.videoId}:${wanted}`, async (d) => {
      const fetched = await d.client.getSubtitle(subtitle.Url);
      return fetched.data;
    });
    const url = await canonicalVideoUrl(deps, i.videoId);
    return withContext(toTranscript({ videoUrl: url, subtitle, vtt, language: i.language }), deps.config.socialNsUrl);
  },
};
