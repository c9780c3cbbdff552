// `reelay keys create|list|revoke|usage|rotate-cursor-key`: manage API keys (and the key that seals
// collection cursors) on the configured store.
// `create` prints the key alone on stdout so scripts can capture it.
import { parseArgs } from 'node:util';
import type { Env, Io } from './io.ts';
import { asUsageError } from './errors.ts';
import { loadConfig } from './options.ts';
import { openStore, createKeyService } from '../storage/index.ts';
import type { ApiKeyRecord, Store } from '../storage/types.ts';
import { rotateCursorKey } from '../operations/cursor-keys.ts';

const OPTIONS = {
  name: { type: 'string' },
  account: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  key: { type: 'string' },
  since: { type: 'string' },
} as const;

const iso = (date: Date | null) => (date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');

function formatKeys(keys: ApiKeyRecord[], accounts: Map<string, string>): string {
  const header = ['ID', 'PREFIX', 'NAME', 'ACCOUNT', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED', 'OAUTH CLIENT'];
  const rows = keys.map((k) => [
    k.id,
    // Exactly what `keys revoke` and `keys usage --key` accept.
    k.prefix,
    k.name,
    accounts.get(k.accountId) ?? k.accountId,
    iso(k.createdAt),
    iso(k.lastUsedAt),
    iso(k.expiresAt),
    iso(k.revokedAt),
    k.oauthClientId ?? '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
}

async function accountNames(store: Store, keys: ApiKeyRecord[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(keys.map((k) => k.accountId))) names.set(id, (await store.getAccount(id))?.name ?? id);
  return names;
}

/** A key id or prefix as typed or pasted: an ellipsis copied from older listings is dropped. */
function displayedKey(value: string | undefined): string | undefined {
  const trimmed = value?.trim().replace(/(?:…|\.\.\.)$/, '');
  return trimmed || undefined;
}

export async function runKeys(argv: string[], env: Env, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  let values: Record<string, string | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    throw asUsageError(error);
  }
  const config = loadConfig(env, { dataDir: values['data-dir'], databaseUrl: values['database-url'] });
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const keys = createKeyService({ store });
  try {
    switch (sub) {
      case 'create': {
        if (!values.name) {
          io.stderr.write('reelay keys create: --name NAME is required\n');
          return 2;
        }
        const { key } = await keys.create({ name: values.name, accountName: values.account });
        io.stdout.write(`${key}\n`);
        return 0;
      }
      case 'rotate-cursor-key': {
        const id = await rotateCursorKey(store);
        io.stdout.write(`cursor key ${id} now seals new cursors; cursors sealed before stay valid for 24 hours (nodes pick the new key up within a minute)\n`);
        return 0;
      }
      case 'list': {
        const list = await keys.list();
        io.stdout.write(formatKeys(list, await accountNames(store, list)));
        return 0;
      }
      case 'revoke': {
        const target = displayedKey(positionals[0] ?? values.key);
        if (!target) {
          io.stderr.write('reelay keys revoke: give the key id or its prefix\n');
          return 2;
        }
        const count = await keys.revoke(target);
        io.stderr.write(count > 0 ? `revoked ${count} key(s)\n` : `no active key matches "${target}"\n`);
        return count > 0 ? 0 : 1;
      }
      case 'usage': {
        let keyId: string | undefined;
        const wanted = displayedKey(values.key);
        if (wanted) {
          const match = (await keys.list()).find((k) => k.id === wanted || k.prefix.startsWith(wanted) || wanted.startsWith(k.prefix));
          if (!match) {
            io.stderr.write(`reelay keys usage: no key matches "${wanted}"\n`);
            return 1;
          }
          keyId = match.id;
        }
        const rows = await store.usage({ keyId, sinceDay: values.since });
        const lines = rows.map((r) => `${r.day}  ${r.keyId}  ${r.operation.padEnd(16)}  ${r.count}`);
        io.stdout.write(['DAY         KEY ID  OPERATION         REQUESTS', ...lines].join('\n') + '\n');
        return 0;
      }
      default:
        io.stderr.write('reelay keys: use create --name NAME | list | revoke ID|PREFIX | usage [--key ID]\n');
        return 2;
    }
  } finally {
    await store.close();
  }
}
