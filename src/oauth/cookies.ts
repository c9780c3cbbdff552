// The consent form's CSRF cookie (double submit). `__Host-` needs Secure, which browsers honour on
// https and on loopback http; on plain http to another host the prefix and Secure are dropped.
import type { FastifyRequest } from 'fastify';
import type { ServerUrls } from './urls.ts';

const COOKIE_MAX_AGE_SECONDS = 600;

function isSecureContext(urls: ServerUrls): boolean {
  const url = new URL(urls.origin);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export function csrfCookieName(urls: ServerUrls): string {
  return isSecureContext(urls) ? '__Host-reelay_csrf' : 'reelay_csrf';
}

export function csrfCookie(urls: ServerUrls, token: string): string {
  const secure = isSecureContext(urls) ? '; Secure' : '';
  return `${csrfCookieName(urls)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_SECONDS}${secure}`;
}

export function readCookie(request: FastifyRequest, urls: ServerUrls): string | undefined {
  return readNamedCookie(request, csrfCookieName(urls));
}

function sessionCookieName(urls: ServerUrls): string {
  return isSecureContext(urls) ? '__Host-reelay_signin' : 'reelay_signin';
}

/** The sign-in session from a one-time link, spent by the next approval. */
export function sessionCookie(urls: ServerUrls, token: string, maxAgeSeconds: number): string {
  const secure = isSecureContext(urls) ? '; Secure' : '';
  return `${sessionCookieName(urls)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

export function readSessionCookie(request: FastifyRequest, urls: ServerUrls): string | undefined {
  return readNamedCookie(request, sessionCookieName(urls));
}

function readNamedCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
