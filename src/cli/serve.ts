// `reelay serve`: both listeners against the live platform, a first API key on first start, and a
// graceful shutdown that finishes in-flight requests within a bound.
import type { Env, Io } from './io.ts';
import { asUsageError } from './errors.ts';
import { parseServiceArgs } from './options.ts';
import { createApp, createServices, type App } from '../app.ts';
import type { Config } from '../config/config.ts';
import { activeAllocator, describeAllocator, parseAllocatorMode } from '../allocator.ts';

/** Both listeners; when one cannot listen (port in use…), everything is closed again before the error goes up. */
export async function listen(app: App, config: Config): Promise<{ restUrl: string; mcpUrl: string }> {
  try {
    const rest = await app.rest.listen({ port: config.port, host: config.host });
    const mcp = await app.mcp.listen({ port: config.mcpPort, host: config.host });
    return { restUrl: rest, mcpUrl: mcp };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** SIGINT/SIGTERM: stop accepting, let in-flight requests finish, close stores; force after the bound. */
export function closeOnSignals(app: App, config: Config, io: Io): Promise<void> {
  return new Promise((resolve) => {
    let closing = false;
    const stop = async (signal: string) => {
      if (closing) return;
      closing = true;
      io.stderr.write(`reelay: ${signal} received, finishing in-flight requests\n`);
      const force = setTimeout(() => {
        io.stderr.write('reelay: shutdown bound reached, exiting\n');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      force.unref();
      await app.close();
      clearTimeout(force);
      resolve();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
}

export async function runServe(argv: string[], env: Env, io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseServiceArgs(argv, env);
  } catch (error) {
    throw asUsageError(error);
  }
  const { config } = parsed;
  const services = await createServices(config);
  const app = createApp(services);
  const { restUrl, mcpUrl } = await listen(app, config);
  // Only once listening, so a start that fails (port in use) never makes a key nobody is shown.
  // Nodes starting together on an empty database race here: exactly one creates and prints the key.
  const firstKey = await services.keys.createFirst({ name: 'first' }).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  // Before saying it listens: a supervisor (or test) that stops it as soon as it is up gets a
  // graceful shutdown, not Node's default death by SIGTERM.
  const closed = closeOnSignals(app, config, io);
  io.stderr.write(`${describeAllocator(activeAllocator(), parseAllocatorMode(env.REELAY_ALLOCATOR))}\n`);
  io.stderr.write(`reelay REST API listening on ${restUrl} (public URL ${config.publicUrl})\n`);
  io.stderr.write(`reelay MCP tool server listening on ${mcpUrl} (public URL ${config.mcpPublicUrl})\n`);
  io.stderr.write(`Data directory: ${config.databaseUrl ? 'PostgreSQL (REELAY_DATABASE_URL)' : config.dataDir}\n`);
  if (firstKey) {
    io.stderr.write(`\nFirst start: an API key was created for you (shown once, keep it):\n\n  ${firstKey.key}\n\n`);
    io.stderr.write(`Try: curl -H "Authorization: Bearer ${firstKey.key}" ${config.publicUrl}/v1/platform/users/someone\n\n`);
  }
  await closed;
  return 0;
}
