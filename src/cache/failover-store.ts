// A ByteStore that is Redis while Redis is up and this node's memory store while it is down, so a
// Redis outage costs cache sharing, not answers nor time spent waiting on a dead connection.
import type { RedisLink } from './redis-link.ts';
import type { MemoryStore } from './memory-store.ts';
import type { ByteStore } from './types.ts';

export type FailoverStoreOptions = {
  shared: ByteStore;
  local: MemoryStore;
  link: Pick<RedisLink, 'attempt' | 'onChange'>;
};

export function createFailoverStore({ shared, local, link }: FailoverStoreOptions): ByteStore {
  // What was cached locally during an outage may be older than Redis's copy by now, and it would
  // hold memory the node no longer uses: the shared store is the truth again once Redis is back.
  link.onChange((up) => {
    if (up) local.clear();
  });
  return {
    get: (key) => link.attempt(() => shared.get(key), () => local.get(key)),
    set: (key, entry, ttlSeconds) => link.attempt(() => shared.set(key, entry, ttlSeconds), () => local.set(key, entry, ttlSeconds)),
    delete: (key) => link.attempt(() => shared.delete(key), () => local.delete(key)),
    async close() {
      await Promise.all([shared.close(), local.close()]);
    },
  };
}
