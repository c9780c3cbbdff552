// The suite's figures: each file adds its counts and prints them as one block at its end.
export type Figures = Record<string, number | string | Record<string, number>>;

export function printFigures(title: string, figures: Figures): void {
  const lines = [`\n=== reliability figures: ${title} ===`];
  for (const [name, value] of Object.entries(figures)) {
    lines.push(`  ${name}: ${typeof value === 'object' ? JSON.stringify(value) : value}`);
  }
  console.log(lines.join('\n'));
}

export function bump(counts: Record<string, number>, key: string | number, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}
