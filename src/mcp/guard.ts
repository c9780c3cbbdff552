// DNS-rebinding and cross-origin protection for every route of the tool server: the Host header must
// name this server, a browser Origin on the MCP endpoint must be allow-listed (MCP transport spec:
// present and invalid → 403), and CORS lets allowed browser clients read WWW-Authenticate.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { McpConfig } from './types.ts';

export const CORS_ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name';
export const CORS_EXPOSE_HEADERS = 'WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version';

/** Routes any origin may call from a browser (discovery and the token endpoints carry no cookies). */
const OPEN_CORS_PATHS = ['/.well-known/', '/register', '/token', '/revoke'];

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function forbidden(reply: FastifyReply, path: string, message: string) {
  const body = path === '/' ? { jsonrpc: '2.0', error: { code: -32000, message }, id: null } : { error: 'forbidden', error_description: message };
  return reply.code(403).header('content-type', 'application/json; charset=utf-8').send(body);
}

export function createGuard(config: McpConfig): Guard {
  const own = new URL(config.publicUrl);
  const hosts = new Set([own.host.toLowerCase(), ...config.allowedHosts.map((h) => h.toLowerCase())]);
  // A loopback-bound server is reached as localhost, 127.0.0.1 or [::1]; a rebinding attacker's name is none of them.
  if (LOOPBACK_NAMES.includes(own.hostname)) for (const name of LOOPBACK_NAMES) hosts.add(name);
  const origins = new Set([own.origin, ...config.allowedOrigins.map((o) => o.replace(/\/+$/, ''))]);
  const loopbackServer = LOOPBACK_NAMES.includes(own.hostname);
  const originAllowed = (origin: string): boolean => {
    if (origins.has(origin)) return true;
    if (!loopbackServer) return false;
    // Local pages (the Inspector, a desktop client's webview) may call a loopback-bound server.
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.includes(url.hostname);
    } catch {
      return false;
    }
  };

  const hostAllowed = (host: string | undefined): boolean => {
    if (!host) return false;
    const value = host.toLowerCase();
    if (hosts.has(value)) return true;
    // An entry without a port allows that host name on any port.
    const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0];
    return hosts.has(name);
  };

  return async function guard(request, reply) {
    const path = request.url.split('?')[0];
    if (!hostAllowed(request.headers.host)) return forbidden(reply, path, 'Forbidden: Host header not allowed');
    const origin = request.headers.origin;
    const open = OPEN_CORS_PATHS.some((p) => path.startsWith(p));
    if (origin !== undefined) {
      if (open) {
        reply.header('access-control-allow-origin', '*');
      } else if (originAllowed(origin)) {
        reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      } else if (path === '/') {
        return forbidden(reply, path, 'Forbidden: Origin not allowed');
      }
      reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS);
    }
    if (request.method === 'OPTIONS') {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS')
        .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    }
  };
}
