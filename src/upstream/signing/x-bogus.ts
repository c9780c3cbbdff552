// The legacy 28-character X-Bogus query signature (PLATFORM.md §5.3, EV-old/F2 constants) and its
// decoder, which the emulator uses to check that a request was signed recently by a real signer.
// No Node imports: the emulator serves this file to a browser page as part of the platform's SDK.
import { base64, latin1Bytes, md5 } from './md5.ts';

const ALPHABET = 'Dkdpgh4ZKsQB80/Mfvw36XI1R25-WUAlEi7NLboqYTOPuzmFjJnryx9HVGcaStCe=';
/** RC4 key byte for the User-Agent digest: 12 in EV/F2 (JA uses 8). */
const UA_KEY_BYTE = 12;
/** The fixed "canvas" fingerprint constant of EV/F2. */
const CANVAS = 536919696;

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i += 1) s[i] = i;
  let j = 0;
  for (let i = 0; i < 256; i += 1) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = new Uint8Array(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n += 1) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

function be32(value: number): number[] {
  return [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

/** The 19 plain bytes: marker, key, digest tails, time, canvas, XOR checksum. */
function plainBytes(query: string, userAgent: string, unixSeconds: number): number[] {
  const q = md5(md5(latin1Bytes(query)));
  const body = md5(md5(new Uint8Array(0)));
  const uaCipher = rc4(Uint8Array.of(0, 1, UA_KEY_BYTE), latin1Bytes(userAgent));
  const ua = md5(latin1Bytes(base64(uaCipher)));
  const bytes = [64, 0, 1, UA_KEY_BYTE, q[14], q[15], body[14], body[15], ua[14], ua[15]];
  bytes.push(...be32(unixSeconds), ...be32(CANVAS));
  bytes.push(bytes.reduce((acc, b) => acc ^ b, 0));
  return bytes;
}

// The published implementations split the bytes into even and odd positions and re-interleave them
// in their argument order; the net permutation is the identity, so the bytes go in as built.
export function signXBogus(query: string, userAgent: string, unixSeconds: number): string {
  const sealed = rc4(Uint8Array.of(255), Uint8Array.from(plainBytes(query, userAgent, unixSeconds)));
  const bytes = [2, 255, ...sealed];
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  return out;
}

/** Reads the signing time back from an X-Bogus value; undefined when it is not a well-formed one. */
export function decodeXBogus(value: string): { unixSeconds: number } | undefined {
  if (value.length !== 28) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < 28; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k += 1) {
      const index = ALPHABET.indexOf(value[i + k]);
      if (index < 0 || index > 63) return undefined;
      n = (n << 6) | index;
    }
    bytes.push((n >> 16) & 255, (n >> 8) & 255, n & 255);
  }
  if (bytes[0] !== 2 || bytes[1] !== 255) return undefined;
  const plain = rc4(Uint8Array.of(255), Uint8Array.from(bytes.slice(2)));
  if (plain[0] !== 64 || plain[3] !== UA_KEY_BYTE) return undefined;
  let checksum = 0;
  for (let i = 0; i < 18; i += 1) checksum ^= plain[i];
  if (checksum !== plain[18]) return undefined;
  const unixSeconds = ((plain[10] << 24) | (plain[11] << 16) | (plain[12] << 8) | plain[13]) >>> 0;
  return { unixSeconds };
}

/** True when `value` is the signature of exactly this query and User-Agent (emulator's strict check). */
export function verifyXBogus(value: string, query: string, userAgent: string): boolean {
  const decoded = decodeXBogus(value);
  return decoded !== undefined && signXBogus(query, userAgent, decoded.unixSeconds) === value;
}
