// `reelay signin-link`: a one-time link that signs an account in to the OAuth consent page, for
// people who would rather not paste an API key into a browser.
import { parseArgs } from 'node:util';
import type { Env, Io } from './io.ts';
import { asUsageError } from './errors.ts';
import { loadConfig } from './options.ts';
import { openStore } from '../storage/index.ts';
import { createSignInLink } from '../oauth/sign-in-link.ts';

export async function runSigninLink(argv: string[], env: Env, io: Io): Promise<number> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { account: { type: 'string' }, 'data-dir': { type: 'string' }, 'mcp-public-url': { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    throw asUsageError(error);
  }
  const config = loadConfig(env, { dataDir: values['data-dir'], mcpPublicUrl: values['mcp-public-url'] });
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const name = values.account ?? 'default';
    const account = await store.findAccountByName(name);
    if (!account) {
      io.stderr.write(`reelay signin-link: no account named "${name}" (accounts are created with their first key)\n`);
      return 1;
    }
    const link = await createSignInLink({ store, publicUrl: config.mcpPublicUrl, accountId: account.id });
    io.stdout.write(`${link.url}\n`);
    io.stderr.write(`One-time sign-in link for account "${name}", valid until ${link.expiresAt.toISOString()}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}
