// One redirect URI policy, applied identically at registration (RFC 7591) and at /authorize:
// HTTPS, loopback http with any port (RFC 8252 §7.3), or an exact allow-listed private-use URI.

/** Native clients that register custom-scheme callbacks (Cursor, VS Code); matched exactly. */
export const PRIVATE_USE_REDIRECTS: readonly string[] = [
  'cursor://anysphere.cursor-mcp/oauth/callback',
  'cursor://anysphere.cursor-retrieval/oauth/callback',
  'vscode://vscode.github-authentication/did-authenticate',
  'vscode-insiders://vscode.github-authentication/did-authenticate',
];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const URI_LENGTH_MAX = 2000;

export type RedirectCheck = { ok: true } | { ok: false; reason: string };

/** Whether a URI may be registered as a redirect URI at all. */
export function checkRedirectUri(uri: string): RedirectCheck {
  if (uri.length > URI_LENGTH_MAX) return { ok: false, reason: `longer than ${URI_LENGTH_MAX} characters` };
  if (PRIVATE_USE_REDIRECTS.includes(uri)) return { ok: true };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, reason: 'not an absolute URI' };
  }
  if (url.hash || uri.includes('#')) return { ok: false, reason: 'must not contain a fragment' };
  if (url.username || url.password) return { ok: false, reason: 'must not contain user information' };
  if (url.protocol === 'https:') return { ok: true };
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return { ok: true };
  if (url.protocol === 'http:') return { ok: false, reason: 'http is allowed only for loopback hosts' };
  return { ok: false, reason: `scheme ${url.protocol} is not allowed` };
}

/**
 * Whether `requested` matches one registered URI: exact string equality, except that on a loopback
 * http host the port may differ (RFC 8252 §7.3; VS Code and Claude Code switch ports).
 */
export function matchRegisteredRedirect(requested: string, registered: readonly string[]): boolean {
  if (!checkRedirectUri(requested).ok) return false;
  if (registered.includes(requested)) return true;
  const url = new URL(requested);
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  return registered.some((candidate) => {
    let other: URL;
    try {
      other = new URL(candidate);
    } catch {
      return false;
    }
    return (
      other.protocol === 'http:' &&
      other.hostname === url.hostname &&
      other.pathname === url.pathname &&
      other.search === url.search
    );
  });
}

/** What the consent page shows the user: the host, or the whole URI for a private-use scheme. */
export function redirectDisplayHost(uri: string): string {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//${url.host}`;
  } catch {
    return uri;
  }
}

export function isLoopbackRedirect(uri: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(uri).hostname);
  } catch {
    return false;
  }
}
