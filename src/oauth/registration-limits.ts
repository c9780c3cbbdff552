// Hourly limits on dynamic client registration per client address and per redirect host (shared by
// all nodes through Redis when it is configured), so that one address can neither exhaust the global
// cap nor flood the client table, and legitimate agents elsewhere can still register.
import { isIP } from 'node:net';
import type { Redis } from 'ioredis';
import { createRateLimiter, type RateLimiter } from '../cache/rate-limit.ts';

export const REGISTRATIONS_PER_ADDRESS_PER_HOUR = 20;
export const REGISTRATIONS_PER_REDIRECT_HOST_PER_HOUR = 50;
const HOUR_SECONDS = 3600;

export type RegistrationVerdict =
  | { allowed: true }
  | { allowed: false; limit: 'address' | 'redirect_host'; retryAfterSeconds: number };

export type RegistrationLimits = {
  /** Counts one registration from `address` for `redirectUris`; denies once either hourly budget is spent. */
  consume(address: string, redirectUris: readonly string[]): Promise<RegistrationVerdict>;
};

export type RegistrationLimitsOptions = {
  redis?: Redis;
  perAddressPerHour?: number;
  perRedirectHostPerHour?: number;
  keyPrefix?: string;
};

/**
 * The counted form of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, since
 * one subscriber usually holds a whole /64 and could otherwise register from endless addresses.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Hosts of the redirect URIs, without loopback ones: every native client redirects to localhost. */
export function redirectHostsOf(redirectUris: readonly string[]): string[] {
  const hosts = new Set<string>();
  for (const uri of redirectUris) {
    let host: string;
    try {
      host = new URL(uri).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (host === 'localhost' || host === '[::1]' || /^127\./.test(host) || host === '') continue;
    hosts.add(host);
  }
  return [...hosts];
}

export function createRegistrationLimits(options: RegistrationLimitsOptions = {}): RegistrationLimits {
  const { redis, keyPrefix = 'reelay:reg' } = options;
  const limiter = (points: number, kind: string): RateLimiter =>
    createRateLimiter({ ...(redis ? { redis } : {}), points, durationSeconds: HOUR_SECONDS, keyPrefix: `${keyPrefix}:${kind}` });
  const perAddress = limiter(options.perAddressPerHour ?? REGISTRATIONS_PER_ADDRESS_PER_HOUR, 'addr');
  const perHost = limiter(options.perRedirectHostPerHour ?? REGISTRATIONS_PER_REDIRECT_HOST_PER_HOUR, 'host');
  return {
    async consume(address, redirectUris) {
      const byAddress = await perAddress.consume(addressKey(address));
      if (!byAddress.allowed) return { allowed: false, limit: 'address', retryAfterSeconds: Math.max(1, byAddress.resetSeconds) };
      for (const host of redirectHostsOf(redirectUris)) {
        const byHost = await perHost.consume(host);
        if (!byHost.allowed) return { allowed: false, limit: 'redirect_host', retryAfterSeconds: Math.max(1, byHost.resetSeconds) };
      }
      return { allowed: true };
    },
  };
}
