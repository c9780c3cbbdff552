// Shared flag parsing: every service flag maps onto a config key and its REELAY_* twin.
import { parseArgs } from 'node:util';
import { configInputFrom, parseConfig, type Config, type ConfigInput } from '../config/config.ts';
import type { Env } from './io.ts';
import { usageError } from './errors.ts';

/** The options of commands that only open the store (keys, export, get). */
export const STORE_FLAGS = { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' } } as const;

/** The configuration from REELAY_* and flags; a bad value is a usage error naming the variable and flag. */
export function loadConfig(env: Env, flags: ConfigInput): Config {
  try {
    return parseConfig(configInputFrom(env, flags));
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

const SERVICE_FLAGS = {
  port: 'port',
  'mcp-port': 'mcpPort',
  'data-dir': 'dataDir',
  host: 'host',
  'public-url': 'publicUrl',
  'mcp-public-url': 'mcpPublicUrl',
  'database-url': 'databaseUrl',
  'redis-url': 'redisUrl',
  'log-level': 'logLevel',
} as const satisfies Record<string, keyof ConfigInput>;

export type ParsedService = { config: Config; extra: Record<string, string | boolean | undefined>; positionals: string[] };

/** Parses service flags plus `extra` command-specific string flags; throws with a usage message. */
export function parseServiceArgs(
  argv: string[],
  env: Env,
  extra: Record<string, { type: 'string' | 'boolean' }> = {},
  overrides: ConfigInput = {},
): ParsedService {
  const options: Record<string, { type: 'string' | 'boolean' }> = { ...extra };
  for (const flag of Object.keys(SERVICE_FLAGS)) options[flag] = { type: 'string' };
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const flags: ConfigInput = { ...overrides };
  for (const [flag, key] of Object.entries(SERVICE_FLAGS)) {
    const value = values[flag];
    if (typeof value === 'string') flags[key] = value;
  }
  const rest: Record<string, string | boolean | undefined> = {};
  for (const name of Object.keys(extra)) rest[name] = values[name] as string | boolean | undefined;
  return { config: parseConfig(configInputFrom(env, flags)), extra: rest, positionals };
}
