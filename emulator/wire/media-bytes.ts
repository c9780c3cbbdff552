// Deterministic media bytes: a file is a magic header over a 4 KiB pattern derived from one number,
// so any byte range of any size (200 MB included) is produced on the fly, without storing the file.
import { Readable } from 'node:stream';
import { hash32 } from '../prng.ts';

export type MediaBytes = { size: number; contentType: string; magic: Buffer; part: number };

/** The best rendition of the manifest's large video: big enough that buffering it would show. */
export const LARGE_MEDIA_BYTES = 200 * 1024 * 1024;
const PATTERN_BYTES = 4096;
const CHUNK_BYTES = 64 * 1024;

export const MP4_MAGIC = Buffer.from('00000020667479706973366d00000200697366366d69736f32617663316d703431', 'hex');
export const MP3_MAGIC = Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000');

/** The 4 KiB pattern twice over, so a window at any phase is one subarray. */
function doubledPattern(part: number): Buffer {
  const out = Buffer.alloc(PATTERN_BYTES * 2);
  for (let i = 0; i < PATTERN_BYTES; i += 4) out.writeUInt32LE(hash32(part, i), i);
  out.copy(out, PATTERN_BYTES, 0, PATTERN_BYTES);
  return out;
}

/** Bytes [start, endExclusive) of the file. */
export function mediaSlice(file: MediaBytes, start: number, endExclusive: number, pattern = doubledPattern(file.part)): Buffer {
  const out = Buffer.allocUnsafe(Math.max(0, endExclusive - start));
  if (out.length === 0) return out;
  const phase = start % PATTERN_BYTES;
  out.fill(pattern.subarray(phase, phase + PATTERN_BYTES));
  if (start < file.magic.length) file.magic.copy(out, 0, start, Math.min(file.magic.length, endExclusive));
  return out;
}

/** Bytes start..end (inclusive) as a stream that makes a chunk only when the reader wants one. */
export function mediaStream(file: MediaBytes, start: number, end: number, onChunk: (bytes: number) => void = () => {}): Readable {
  const pattern = doubledPattern(file.part);
  let at = start;
  return new Readable({
    highWaterMark: CHUNK_BYTES,
    read() {
      if (at > end) return void this.push(null);
      const next = Math.min(at + CHUNK_BYTES, end + 1);
      const chunk = mediaSlice(file, at, next, pattern);
      at = next;
      onChunk(chunk.length);
      this.push(chunk);
    },
  });
}

/** Streams start..end through `update` without a Readable (tests hash expected bytes this way). */
export function forEachMediaChunk(file: MediaBytes, start: number, end: number, update: (chunk: Buffer) => void): void {
  const pattern = doubledPattern(file.part);
  for (let at = start; at <= end; at += CHUNK_BYTES) update(mediaSlice(file, at, Math.min(at + CHUNK_BYTES, end + 1), pattern));
}
