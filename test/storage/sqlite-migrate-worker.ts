// Worker for sqlite-store.test.ts: opens its own connection to the given file and migrates it,
// so two workers race on a fresh database for real (node:sqlite is synchronous per thread).

import { parentPort, workerData } from 'node:worker_threads';
import { createSqliteStore } from '../../src/storage/sqlite-store.ts';

const { path, start } = workerData as { path: string; start: Int32Array };
const store = createSqliteStore({ path });
// Both workers wait on the same flag so their migrations start together.
Atomics.wait(start, 0, 0, 5000);
try {
  await store.migrate();
  parentPort?.postMessage({ ok: true });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: String(error) });
} finally {
  await store.close();
}
