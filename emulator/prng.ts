// Seeded, stateless randomness for the emulator's dataset: every value is a pure function of
// (seed, salt, index…), so any entity can be generated alone, in any order, with the same result.

/** 32-bit avalanche hash of a list of integers (murmur3 finalizer chained over the inputs). */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    h = Math.imul(h ^ ((part / 0x100000000) | 0), 0x27d4eb2f);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** Uniform float in [0, 1) from the same inputs as hash32. */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 0x100000000;
}

/** Integer in [min, max] inclusive. */
export function between(min: number, max: number, ...parts: number[]): number {
  return min + Math.floor(unit(...parts) * (max - min + 1));
}

export function pick<T>(list: readonly T[], ...parts: number[]): T {
  return list[hash32(...parts) % list.length];
}

/** Small sequential generator (mulberry32) for things that need a stream, e.g. fault rolls. */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  };
}

const MASK31 = 0x7fffffff;

/** Inverse of an odd multiplier modulo 2^31 (Newton iteration). */
function inverse31(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x & MASK31;
}

/** A reversible scramble of indexes below 2^31, so ids look random yet decode to their index. */
export type Scrambler = { encode(index: number): number; decode(low: number): number };

export function createScrambler(seed: number, salt: number): Scrambler {
  const mult = (hash32(seed, salt, 1) | 1) & MASK31;
  const inv = inverse31(mult);
  const mask = hash32(seed, salt, 2) & MASK31;
  return {
    encode: (index) => (Math.imul(index, mult) & MASK31) ^ mask,
    decode: (low) => Math.imul((low & MASK31) ^ mask, inv) & MASK31,
  };
}

/**
 * Platform ids carry their creation time in the upper 32 bits (a real id >> 32 equals its
 * createTime), and here an encoded index in the lower 32 bits.
 */
export function makeId(unixSeconds: number, low: number): string {
  return ((BigInt(unixSeconds) << 32n) | BigInt(low >>> 0)).toString();
}

export function splitId(id: string): { unixSeconds: number; low: number } | undefined {
  if (!/^\d{18,20}$/.test(id)) return undefined;
  const big = BigInt(id);
  return { unixSeconds: Number(big >> 32n), low: Number(big & 0xffffffffn) };
}

/** Deterministic bytes, e.g. for secUids and file keys. */
export function bytesFrom(length: number, ...parts: number[]): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 4) {
    const h = hash32(...parts, i);
    for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (h >>> (8 * j)) & 0xff;
  }
  return out;
}

/** Deterministic lowercase hex string of the given length. */
export function hexFrom(length: number, ...parts: number[]): string {
  return bytesFrom(Math.ceil(length / 2), ...parts).toString('hex').slice(0, length);
}

/** Platform display rounding of counts in `stats` (427682 → 427700, 6764096 → 6800000). */
export function roundCount(n: number): number {
  if (n < 10_000) return n;
  if (n < 1_000_000) return Math.round(n / 100) * 100;
  if (n < 1_000_000_000) return Math.round(n / 100_000) * 100_000;
  return Math.round(n / 100_000_000) * 100_000_000;
}
