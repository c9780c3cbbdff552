// Reads the JSON a profile or video page embeds for hydration (PLATFORM.md §2.2, §2.8):
// <script id="__UNIVERSAL_DATA_FOR_REHYDRATION__"> → __DEFAULT_SCOPE__[scope].

const SCRIPT = /<script\b[^>]*\bid=["']__UNIVERSAL_DATA_FOR_REHYDRATION__["'][^>]*>([\s\S]*?)<\/script>/i;

/** The whole rehydration object; undefined when the page has no such script or it is not JSON. */
export function extractRehydration(html: string): Record<string, unknown> | undefined {
  const text = SCRIPT.exec(html)?.[1];
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** One scope (`webapp.user-detail`, `webapp.video-detail`, …) of the page; undefined when absent. */
export function extractScope(html: string, scope: string): Record<string, unknown> | undefined {
  const root = extractRehydration(html);
  const scopes = root?.__DEFAULT_SCOPE__;
  if (typeof scopes !== 'object' || scopes === null) return undefined;
  const value = (scopes as Record<string, unknown>)[scope];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}
