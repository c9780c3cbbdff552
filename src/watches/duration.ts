// Durations as people write them ("90s", "15m", "24h", "7d", "250ms"), for watch intervals and
// the watch and webhook settings; parsed once at the edge, carried as milliseconds inside.

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PATTERN = /^(\d{1,9})(ms|s|m|h|d)$/;

/** Milliseconds of `text`, or undefined when it is not a whole number followed by ms, s, m, h or d. */
export function parseDurationMs(text: string): number | undefined {
  const match = PATTERN.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

/** The largest unit that divides `ms` exactly: 900000 → "15m", 1500 → "1500ms". */
export function formatDurationMs(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
