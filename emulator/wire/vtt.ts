// WebVTT subtitle bodies: a header, a blank line, then timed cues whose text depends on the
// language and the video, so each track of each video is distinct.
import { hash32 } from '../prng.ts';
import { SUBTITLE_LANGUAGES, SUBTITLE_LINES } from '../words.ts';

function stamp(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

export function buildVtt(videoId: string, language: number, durationSeconds: number): string {
  const lang = SUBTITLE_LANGUAGES[language];
  const lines = SUBTITLE_LINES[lang.lines];
  const seedPart = Number(BigInt(videoId) % 1_000_000_007n);
  const cueCount = Math.max(2, Math.min(12, Math.floor(durationSeconds / 4)));
  const span = Math.max(durationSeconds, 4) * 1000;
  const cues: string[] = [];
  for (let k = 0; k < cueCount; k++) {
    const start = Math.floor((span * k) / cueCount);
    const end = Math.floor((span * (k + 1)) / cueCount) - 40;
    const text = lines[(hash32(seedPart) + k) % lines.length];
    cues.push(`${stamp(start)} --> ${stamp(end)}\n${text}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
