// Scans logs and answer bodies for secrets: the exact keys, tokens and cookie values a test knows,
// and anything shaped like a reelay credential or an unredacted Authorization/Cookie header.
export type Leak = { where: string; what: string; excerpt: string };

const SHAPES: Array<[string, RegExp]> = [
  ['reelay API key', /rly_[A-Za-z0-9_-]{20,}/],
  ['OAuth refresh token', /rlyr_[A-Za-z0-9_-]{20,}/],
  ['OAuth authorization code', /rlyac_[A-Za-z0-9_-]{20,}/],
  ['bearer credential', /Bearer\s+(?!realm|resource_metadata|error|<)[A-Za-z0-9._~+/=-]{20,}/i],
  ['unredacted authorization header', /"authorization"\s*:\s*"(?!\[redacted\])[^"]+"/i],
  ['unredacted cookie header', /"(?:cookie|set-cookie)"\s*:\s*"(?!\[redacted\])[^"]+"/i],
];

/** Hides all but the first characters, so the report itself does not spread the secret. */
function mask(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 40);
  return `${text.slice(start, at)}${text.slice(at, at + Math.min(8, length))}…[${length} chars]`.replace(/\s+/g, ' ');
}

export function findLeaks(where: string, text: string, known: Iterable<string>): Leak[] {
  const leaks: Leak[] = [];
  for (const secret of known) {
    if (secret.length < 12) continue;
    const at = text.indexOf(secret);
    if (at >= 0) leaks.push({ where, what: 'known secret', excerpt: mask(text, at, secret.length) });
  }
  for (const [what, pattern] of SHAPES) {
    const match = pattern.exec(text);
    if (match) leaks.push({ where, what, excerpt: mask(text, match.index, match[0].length) });
  }
  return leaks;
}
