// The Range header a media request may carry (RFC 9110 §14): one `bytes` range is passed on to the
// CDN; anything else (several ranges, other units, malformed) is ignored and the whole file served,
// which §14.2 allows.

/** `bytes=a-b`, `bytes=a-` or `bytes=-n`, normalised; undefined when the whole file is to be sent. */
export function singleByteRange(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*bytes\s*=\s*(\d{0,15})\s*-\s*(\d{0,15})\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === '' && last === '') return undefined;
  if (first !== '' && last !== '' && Number(first) > Number(last)) return undefined;
  if (first === '' && Number(last) === 0) return undefined;
  return `bytes=${first}-${last}`;
}

/** The complete length N in a `Content-Range` of `bytes a-b/N` (or the 416 form), when stated. */
export function completeLength(contentRange: string | null): number | undefined {
  const match = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return match ? Number(match[1]) : undefined;
}
