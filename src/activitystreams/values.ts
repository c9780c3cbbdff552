// Safe readers for the platform's loosely typed scalars: counts and times arrive as numbers in
// 2025+ payloads and as strings in older ones; nothing here ever yields NaN.

/** An integer from a number or a decimal string; undefined for anything else. */
export function toInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Math.trunc(Number(value));
  return undefined;
}

/** `statsV2` holds exact strings, `stats` rounded numbers: the exact value wins when it parses. */
export function pickCount(exact: unknown, rounded: unknown): number | undefined {
  return toInt(exact) ?? toInt(rounded);
}

/** Unix seconds (number or string) to ISO 8601 UTC with milliseconds; undefined when absent or 0. */
export function toTimestamp(seconds: unknown): string | undefined {
  const value = toInt(seconds);
  if (value === undefined || value <= 0) return undefined;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A non-empty string, else undefined (the platform sends "" for "none"). */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Copy without undefined members, keeping key order, so absent fields are omitted, not null. */
export function prune<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) if (value !== undefined) out[key] = value;
  return out as T;
}

/** A member of a loose platform object that the raw schema does not name. */
export function extra(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>)[key] : undefined;
}
