// Who a watch belongs to, from the API key of the call that touches it.
import type { KeyService } from '../storage/keys.ts';
import type { ApiKeyRecord } from '../storage/types.ts';

/** Watches belong to a key; an OAuth grant's tokens rotate, so theirs belong to the grant's client and account. */
export function ownerOf(key: Pick<ApiKeyRecord, 'id' | 'accountId' | 'oauthClientId'>): string {
  return key.oauthClientId ? `oauth:${key.oauthClientId}:${key.accountId}` : `key:${key.id}`;
}

/**
 * Watches of a revoked or expired key stop; an OAuth grant's watches belong to the grant, whose
 * tokens come and go, so they run until deleted through one of its tokens.
 */
export function ownerActivity(keys: Pick<KeyService, 'isActive'>): (owner: string) => Promise<boolean> {
  return async (owner) => (owner.startsWith('key:') ? keys.isActive(owner.slice('key:'.length)) : true);
}
