// Shapes the tool server and its OAuth endpoints are built from: configuration and the narrow
// views of the key service, store and logger they use (structural, so fakes in tests fit).
import type { WatchService } from '../watches/service.ts';
import type { KeyService } from '../storage/keys.ts';
import type { Store } from '../storage/types.ts';
import type { Executor } from '../operations/execute.ts';
import type { Operation } from '../operations/types.ts';
import type { RegistrationLimits } from '../oauth/registration-limits.ts';

export type McpConfig = {
  /** `{mcp_url}`: the public URL of the tool server, e.g. http://127.0.0.1:8081; also the OAuth issuer. */
  publicUrl: string;
  /** Public base URL of the REST API, linked from the docs and metadata. */
  restBaseUrl: string;
  /** Browser origins allowed to call the server (the server's own origin is always allowed). */
  allowedOrigins: string[];
  /** Accepted `Host` values (host or host:port); empty = only the public URL's host. */
  allowedHosts: string[];
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  codeTtlSeconds: number;
  serviceName: string;
  /** Deadline of one tool call, the same as REST's (REELAY_REQUEST_DEADLINE_MS; default 30000). */
  requestDeadlineMs?: number;
  /** Global cap on dynamic client registrations per hour, across all nodes (default 500). */
  registrationsPerHourMax?: number;
  /** Registered clients never used for this long are deleted (default 30 days). */
  staleClientTtlSeconds?: number;
  /** Registrations that never completed an authorization expire after this long (default 24 h). */
  unusedClientTtlSeconds?: number;
  /** Registrations per client address (IPv6: per /64) per hour (default 20). */
  registrationsPerAddressPerHour?: number;
  /** Registrations naming one redirect host per hour, loopback hosts aside (default 50). */
  registrationsPerRedirectHostPerHour?: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address: a hop count or a list of
   * addresses/CIDRs (REELAY_TRUST_PROXY); undefined uses the socket's address.
   */
  trustProxy?: number | readonly string[];
};

/** The key service of src/storage/keys.ts: OAuth access tokens are ordinary API keys. */
export type { KeyService } from '../storage/keys.ts';

export type Logger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type McpDeps = {
  executor: Executor;
  operations: readonly Operation[];
  keys: KeyService;
  store: Store;
  config: McpConfig;
  logger: Logger;
  /** Injected for tests; defaults to the system clock. */
  clock?: () => Date;
  /** The buffered per-key usage counter REST uses; without it usage is written straight to the store. */
  usage?: { record(keyId: string, operation: string): void };
  /** Shares the registration limits between nodes; without it each node counts on its own. */
  registrationLimits?: RegistrationLimits;
  /** The per-key request limit REST uses, so a key has one budget across both transports. */
  rateLimiter?: { consume(key: string): Promise<{ allowed: boolean; resetSeconds: number }> };
  /** Adds the watch tools (watch-tools.ts) beside the platform tools. */
  watches?: WatchService;
};
