// X-Gnarly, the seal the platform's web SDK appends to API calls since 2025 (PLATFORM.md §5.3): a
// small record of numbered fields (hashes of query, body and User-Agent, time, versions), encrypted
// with a ChaCha-style stream under a random key that travels inside the value, so a receiver can
// decode and check it. No Node imports: the emulator serves this file to a browser page too.
import { md5Hex, utf8Bytes } from './md5.ts';

export type GnarlyValue = number | string;
/** Field number → value. Field 0 is the XOR checksum of the numeric fields; encode adds it. */
export type GnarlyFields = Map<number, GnarlyValue>;

const ALPHABET = 'u09tbS3UvgDEe6r-ZVMXzLpsAohTn7mdINQlW412GqBjfYiyk8JORCF5/xKHwacP';
/** The stream's four fixed words, in place of ChaCha's "expand 32-byte k". */
const CONSTANTS = [1196819126, 600974999, 3863347763, 1451689750];
const MARKER = 0x4b;
const KEY_WORDS = 12;
/** Fields whose values are text (hex digests, versions); the others are integers. */
const TEXT_FIELDS = new Set([3, 4, 5, 9, 10]);

function rotl(x: number, n: number): number {
  return ((x << n) | (x >>> (32 - n))) >>> 0;
}

function quarter(w: Uint32Array, a: number, b: number, c: number, d: number): void {
  w[a] += w[b];
  w[d] = rotl(w[d] ^ w[a], 16);
  w[c] += w[d];
  w[b] = rotl(w[b] ^ w[c], 12);
  w[a] += w[b];
  w[d] = rotl(w[d] ^ w[a], 8);
  w[c] += w[d];
  w[b] = rotl(w[b] ^ w[c], 7);
}

/** One keystream block; `rounds` counts column and diagonal rounds separately, as the SDK does. */
function block(state: Uint32Array, rounds: number): Uint32Array {
  const w = state.slice();
  for (let r = 0; r < rounds; r += 1) {
    if (r % 2 === 0) {
      quarter(w, 0, 4, 8, 12);
      quarter(w, 1, 5, 9, 13);
      quarter(w, 2, 6, 10, 14);
      quarter(w, 3, 7, 11, 15);
    } else {
      quarter(w, 0, 5, 10, 15);
      quarter(w, 1, 6, 11, 12);
      quarter(w, 2, 7, 12, 13);
      quarter(w, 3, 4, 13, 14);
    }
  }
  for (let i = 0; i < 16; i += 1) w[i] += state[i];
  return w;
}

/** XORs `data` in place with the keystream of `keyWords` (encryption and decryption alike). */
function applyStream(keyWords: Uint32Array, data: Uint8Array): void {
  const state = new Uint32Array(16);
  state.set(CONSTANTS, 0);
  state.set(keyWords, 4);
  const rounds = 5 + (keyWords.reduce((sum, word) => sum + (word & 15), 0) & 15);
  for (let offset = 0; offset < data.length; offset += 64) {
    const stream = block(state, rounds);
    state[12] += 1;
    for (let i = offset; i < Math.min(offset + 64, data.length); i += 1) {
      data[i] ^= (stream[(i - offset) >> 2] >>> (8 * (i & 3))) & 255;
    }
  }
}

function intBytes(value: number): number[] {
  return value < 65535 ? [(value >>> 8) & 255, value & 255] : [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

/** The first four UTF-8 bytes of a text as a big-endian number (how text enters a checksum). */
function textWord(text: string): number {
  return Array.from(utf8Bytes(text).subarray(0, 4)).reduce((acc, byte) => ((acc << 8) | byte) >>> 0, 0);
}

/**
 * XOR of the fields from 1 up to `upTo`, text fields by their leading bytes when asked. Field 2
 * (the endpoint's ub code) stays out of field 0: the published vector's checksum omits its 14.
 */
export function fieldChecksum(fields: GnarlyFields, upTo: number, numbersOnly: boolean): number {
  let sum = 0;
  for (let key = 1; key <= upTo; key += 1) {
    if (numbersOnly && key === 2) continue;
    const value = fields.get(key);
    if (typeof value === 'number') sum ^= value;
    else if (typeof value === 'string' && !numbersOnly) sum ^= textWord(value);
  }
  return sum >>> 0;
}

function serialize(fields: GnarlyFields): Uint8Array {
  const out: number[] = [fields.size];
  for (const [key, value] of fields) {
    const bytes = typeof value === 'number' ? intBytes(value) : Array.from(utf8Bytes(value));
    out.push(key, ...intBytes(bytes.length), ...bytes);
  }
  return Uint8Array.from(out);
}

function insertPosition(key: Uint8Array, cipher: Uint8Array): number {
  let position = 0;
  for (const byte of key) position = (position + byte) % (cipher.length + 1);
  for (const byte of cipher) position = (position + byte) % (cipher.length + 1);
  return position;
}

/**
 * Seals `fields` (numbered 1…n, in the order given) behind field 0, their checksum, which comes
 * first as in the published vector. `randomWord` supplies the 12 key words (uniform 32-bit).
 */
export function encodeXGnarly(fields: GnarlyFields, randomWord: () => number): string {
  const body: GnarlyFields = new Map(fields);
  body.delete(0);
  const record: GnarlyFields = new Map([[0, fieldChecksum(body, Math.max(...body.keys()), true)], ...body]);
  const cipher = serialize(record);
  const keyWords = Uint32Array.from({ length: KEY_WORDS }, () => randomWord() >>> 0);
  applyStream(keyWords, cipher);
  const key = new Uint8Array(keyWords.buffer.slice(0));
  const at = insertPosition(key, cipher);
  const sealed = Uint8Array.from([MARKER, ...cipher.subarray(0, at), ...key, ...cipher.subarray(at)]);
  if (sealed.length % 3 !== 0) throw new RangeError(`an X-Gnarly record of ${cipher.length} bytes does not fill whole groups`);
  let text = '';
  // Only whole 3-byte groups are written: records are built to fit (see `requestFields`).
  for (let i = 0; i + 2 < sealed.length; i += 3) {
    const n = (sealed[i] << 16) | (sealed[i + 1] << 8) | sealed[i + 2];
    text += ALPHABET[(n >>> 18) & 63] + ALPHABET[(n >>> 12) & 63] + ALPHABET[(n >>> 6) & 63] + ALPHABET[n & 63];
  }
  return text;
}

function parseRecord(plain: Uint8Array): GnarlyFields | undefined {
  const fields: GnarlyFields = new Map();
  let at = 1;
  for (let n = 0; n < plain[0]; n += 1) {
    if (at + 3 > plain.length) return undefined;
    const key = plain[at];
    const length = (plain[at + 1] << 8) | plain[at + 2];
    const value = plain.subarray(at + 3, at + 3 + length);
    if (value.length !== length || fields.has(key)) return undefined;
    if (TEXT_FIELDS.has(key)) fields.set(key, new TextDecoder('utf-8', { fatal: true }).decode(value));
    else if (length === 2 || length === 4) fields.set(key, value.reduce((acc, byte) => acc * 256 + byte, 0));
    else return undefined;
    at += 3 + length;
  }
  if (at !== plain.length) return undefined;
  const checksum = fields.get(0);
  return checksum === fieldChecksum(fields, Math.max(...fields.keys()), true) ? fields : undefined;
}

/** The sealed record, or undefined when `value` is not a well-formed X-Gnarly (any field altered). */
export function decodeXGnarly(value: string): GnarlyFields | undefined {
  if (value.length < 68) return undefined;
  const bytes: number[] = [];
  // Whole groups only: a trailing partial group (seen on the published vector) carries no byte.
  for (let i = 0; i + 4 <= value.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k += 1) {
      const index = ALPHABET.indexOf(value[i + k]);
      if (index < 0) return undefined;
      n = (n << 6) | index;
    }
    bytes.push((n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  }
  if (bytes[0] !== MARKER) return undefined;
  const rest = Uint8Array.from(bytes.slice(1));
  const cipherLength = rest.length - KEY_WORDS * 4;
  // The key's position depends on the key and the ciphertext: try each, keep the one that agrees.
  for (let at = 0; at <= cipherLength; at += 1) {
    const key = rest.slice(at, at + KEY_WORDS * 4);
    const cipher = Uint8Array.from([...rest.subarray(0, at), ...rest.subarray(at + KEY_WORDS * 4)]);
    if (insertPosition(key, cipher) !== at) continue;
    applyStream(new Uint32Array(key.buffer), cipher);
    const fields = parseRecord(cipher);
    if (fields) return fields;
  }
  return undefined;
}

/** The fields a request is sealed with, per PLATFORM.md §5.3 (version 5.1.x field set). */
export function requestFields(input: {
  query: string;
  body: string;
  userAgent: string;
  nowMs: number;
  envCode: number;
  ubCode: number;
  canvas: number;
  version: string;
  scmVersion?: string;
}): GnarlyFields {
  const fields: GnarlyFields = new Map<number, GnarlyValue>([
    [1, input.envCode],
    [2, input.ubCode],
    [3, md5Hex(utf8Bytes(input.query))],
    [4, md5Hex(utf8Bytes(input.body))],
    [5, md5Hex(utf8Bytes(input.userAgent))],
    [6, Math.floor(input.nowMs / 1000)],
    [7, input.canvas],
    // A microsecond clock mod 2^31, kept at four bytes so the record always fills whole groups.
    [8, Math.max(65_535, Math.floor(input.nowMs * 1000) % 2147483648)],
    [9, input.version],
  ]);
  if (input.scmVersion !== undefined) {
    fields.set(10, input.scmVersion);
    fields.set(11, 1);
    fields.set(12, fieldChecksum(fields, 11, false));
  }
  return fields;
}
