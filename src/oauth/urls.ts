// The tool server's identity as OAuth sees it: issuer, resource and endpoint URLs, all derived from
// the one public URL so the strings are byte-identical in metadata, redirects and checks.

export type ServerUrls = {
  /** RFC 8414 issuer: the public URL without trailing slash (RFC 9207 `iss` must equal it exactly). */
  issuer: string;
  /** RFC 8707/9728 resource: the MCP endpoint URL, canonical form without trailing slash. */
  resource: string;
  /** Path part of the public URL ('' at the origin root), appended to well-known paths. */
  pathSuffix: string;
  origin: string;
  protectedResourceMetadata: string;
  authorizationServerMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
};

export function toServerUrls(publicUrl: string): ServerUrls {
  const url = new URL(publicUrl);
  if (url.search || url.hash) throw new Error('publicUrl must not have a query or fragment');
  const pathSuffix = url.pathname.replace(/\/+$/, '');
  const issuer = `${url.origin}${pathSuffix}`;
  return {
    issuer,
    resource: issuer,
    pathSuffix,
    origin: url.origin,
    protectedResourceMetadata: `${url.origin}/.well-known/oauth-protected-resource${pathSuffix}`,
    authorizationServerMetadata: `${url.origin}/.well-known/oauth-authorization-server${pathSuffix}`,
    authorize: `${issuer}/authorize`,
    token: `${issuer}/token`,
    register: `${issuer}/register`,
    revoke: `${issuer}/revoke`,
  };
}

/** RFC 8707 comparison: scheme and host case-insensitive, no fragment, one trailing slash ignored. */
export function isSameResource(candidate: string, resource: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.hash || url.search) return false;
  const normalised = `${url.origin}${url.pathname.replace(/\/$/, '')}`;
  return normalised === resource;
}
