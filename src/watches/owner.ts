// Who a watch belongs to, from the API key of the call that touches it.
import type { ApiKeyRecord } from '../storage/types.ts';

/** Watches belong to a key; an OAuth grant's tokens rotate, so theirs belong to the grant's client and account. */
export function ownerOf(key: Pick<ApiKeyRecord, 'id' | 'accountId' | 'oauthClientId'>): string {
  return key.oauthClientId ? `oauth:${key.oauthClientId}:${key.accountId}` : `key:${key.id}`;
}
