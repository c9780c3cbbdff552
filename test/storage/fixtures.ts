// Record builders shared by the Store contract suites; every name and id is unique per call so
// tests sharing one database never see each other's rows.

import { randomUUID } from 'node:crypto';
import type { NewApiKey, Store } from '../../src/storage/types.ts';

export type MakeStore = () => Promise<Store>;

export const uid = (label: string): string => `${label}-${randomUUID()}`;

export function newKey(accountId: string, overrides: Partial<NewApiKey> = {}): NewApiKey {
  const id = randomUUID();
  return {
    id,
    accountId,
    name: uid('key'),
    hash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
    prefix: `rly_${id.slice(0, 8)}`,
    expiresAt: null,
    oauthClientId: null,
    resource: null,
    ...overrides,
  };
}

