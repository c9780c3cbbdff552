// Child process for the crash test: creates API keys in a loop through the store, printing each key
// on stdout only after its write returned, so a printed key is an acknowledged one.
import { writeSync } from 'node:fs';
import { createKeyService, openStore } from '../../../src/storage/index.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as { dataDir: string; databaseUrl?: string; countMax?: number };
const store = await openStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
const keys = createKeyService({ store });
for (let i = 0; i < (options.countMax ?? 100_000); i++) {
  const { key } = await keys.create({ name: `crash-${i}`, accountName: `crash-account-${i % 7}` });
  writeSync(1, `${key}\n`);
}
await store.close();
