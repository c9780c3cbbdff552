// The OAuth half of the Store contract suite: clients, authorization codes and refresh tokens,
// including the single-winner guarantees under concurrent redemption and rotation, and issueGrant's
// all-or-nothing write of one token issuance.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { AuthCodeRecord, NewApiKey, OAuthClientRecord, RefreshTokenRecord, Store } from '../../src/storage/types.ts';
import { newKey, uid, type MakeStore } from './fixtures.ts';

function client(overrides: Partial<OAuthClientRecord> = {}): OAuthClientRecord {
  return {
    clientId: uid('client'),
    secretHash: 'a'.repeat(64),
    metadata: { client_name: 'Test', redirect_uris: ['http://127.0.0.1/cb'], nested: { n: 1, ok: true } },
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    lastUsedAt: null,
    ...overrides,
  };
}

function code(accountId: string, overrides: Partial<AuthCodeRecord> = {}): AuthCodeRecord {
  return {
    codeHash: uid('code'),
    clientId: uid('client'),
    accountId,
    redirectUri: 'http://127.0.0.1:3000/callback',
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    resource: 'https://mcp.example.test',
    scope: 'read',
    expiresAt: new Date('2030-01-01T00:10:00.000Z'),
    usedAt: null,
    issuedKeyId: null,
    issuedRefreshHash: null,
    ...overrides,
  };
}

function refresh(accountId: string, overrides: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord {
  return {
    tokenHash: uid('rt'),
    clientId: uid('client'),
    accountId,
    resource: null,
    scope: null,
    familyId: uid('family'),
    expiresAt: new Date('2030-02-01T00:00:00.000Z'),
    rotatedAt: null,
    revokedAt: null,
    keyId: null,
    ...overrides,
  };
}

/** A key and the refresh token minted with it, as the token endpoint builds them. */
function issuance(accountId: string, familyId = uid('family')): { key: NewApiKey; refresh: RefreshTokenRecord } {
  const key = newKey(accountId, { oauthClientId: uid('client'), createdAt: new Date('2030-01-01T00:01:00.000Z') });
  return { key, refresh: refresh(accountId, { familyId, keyId: key.id }) };
}

export function runOAuthContract(get: () => Store, makeStore: MakeStore): void {
  test('a client round-trips with its metadata; a public client has no secret hash', async () => {
    const store = get();
    const confidential = client();
    const pub = client({ secretHash: null, lastUsedAt: new Date('2030-01-02T00:00:00.000Z') });
    await store.insertClient(confidential);
    await store.insertClient(pub);
    assert.deepEqual(await store.getClient(confidential.clientId), confidential);
    assert.deepEqual(await store.getClient(pub.clientId), pub);
    assert.equal(await store.getClient(uid('missing')), null);
    await assert.rejects(store.insertClient(confidential), 'client ids are unique');
  });

  test('touchClient records lastUsedAt', async () => {
    const store = get();
    const c = client();
    await store.insertClient(c);
    const at = new Date('2030-01-05T01:02:03.456Z');
    await store.touchClient(c.clientId, at);
    assert.deepEqual((await store.getClient(c.clientId))?.lastUsedAt, at);
  });

  test('deleteStaleClients removes only clients created before the cutoff and unused since', async () => {
    const store = get();
    const cutoff = new Date('2001-06-01T00:00:00.000Z');
    const stale = client({ createdAt: new Date('2001-01-01T00:00:00.000Z') });
    const usedBefore = client({ createdAt: new Date('2001-01-01T00:00:00.000Z'), lastUsedAt: new Date('2001-02-01T00:00:00.000Z') });
    const usedSince = client({ createdAt: new Date('2001-01-01T00:00:00.000Z'), lastUsedAt: new Date('2001-07-01T00:00:00.000Z') });
    const fresh = client({ createdAt: new Date('2001-06-02T00:00:00.000Z') });
    for (const c of [stale, usedBefore, usedSince, fresh]) await store.insertClient(c);
    assert.equal(await store.deleteStaleClients(cutoff), 2);
    assert.equal(await store.getClient(stale.clientId), null);
    assert.equal(await store.getClient(usedBefore.clientId), null);
    assert.ok(await store.getClient(usedSince.clientId));
    assert.ok(await store.getClient(fresh.clientId));
  });

  test('deleteUnusedClients removes only clients created before the cutoff that were never used', async () => {
    const store = get();
    const cutoff = new Date('1990-06-01T00:00:00.000Z');
    const unused = client({ createdAt: new Date('1990-01-01T00:00:00.000Z') });
    const used = client({ createdAt: new Date('1990-01-01T00:00:00.000Z'), lastUsedAt: new Date('1990-01-02T00:00:00.000Z') });
    const fresh = client({ createdAt: new Date('1990-06-02T00:00:00.000Z') });
    for (const c of [unused, used, fresh]) await store.insertClient(c);
    assert.equal(await store.deleteUnusedClients(cutoff), 1);
    assert.equal(await store.getClient(unused.clientId), null);
    assert.ok(await store.getClient(used.clientId));
    assert.ok(await store.getClient(fresh.clientId));
  });

  test('countClientsSince counts clients created at or after the instant', async () => {
    const store = get();
    const since = new Date('2095-01-01T00:00:00.000Z');
    await store.insertClient(client({ createdAt: new Date('2094-12-31T23:59:59.999Z') }));
    await store.insertClient(client({ createdAt: since }));
    await store.insertClient(client({ createdAt: new Date('2095-01-02T00:00:00.000Z') }));
    assert.equal(await store.countClientsSince(since), 2);
  });

  test('an auth code redeems once: the second redemption sees usedAt set', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const c = code(account.id);
    await store.insertAuthCode(c);
    const first = new Date('2030-01-01T00:01:00.000Z');
    assert.deepEqual(await store.redeemAuthCode(c.codeHash, first), c);
    await store.setAuthCodeIssued(c.codeHash, 'key-1', 'refresh-hash-1');
    const second = await store.redeemAuthCode(c.codeHash, new Date('2030-01-01T00:02:00.000Z'));
    assert.deepEqual(second, { ...c, usedAt: first, issuedKeyId: 'key-1', issuedRefreshHash: 'refresh-hash-1' });
    assert.equal(await store.redeemAuthCode(uid('unknown'), first), null);
  });

  test('ten concurrent redemptions of one code over two connections: exactly one sees it unused', async () => {
    const store = get();
    const other = await makeStore();
    try {
      const account = await store.createAccount(uid('acct'));
      const c = code(account.id);
      await store.insertAuthCode(c);
      const at = new Date('2030-01-01T00:01:00.000Z');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).redeemAuthCode(c.codeHash, at)),
      );
      assert.equal(results.filter((r) => r !== null && r.usedAt === null).length, 1);
      assert.equal(results.filter((r) => r?.usedAt instanceof Date).length, 9);
    } finally {
      await other.close();
    }
  });

  test('a refresh token rotates once: the second rotation sees rotatedAt set', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const t = refresh(account.id, { scope: 'read', resource: 'https://mcp.example.test', keyId: randomUUID() });
    await store.insertRefreshToken(t);
    assert.deepEqual(await store.getRefreshToken(t.tokenHash), t);
    const at = new Date('2030-01-10T00:00:00.000Z');
    assert.deepEqual(await store.rotateRefreshToken(t.tokenHash, at), t);
    assert.deepEqual(await store.rotateRefreshToken(t.tokenHash, new Date('2030-01-11T00:00:00.000Z')), { ...t, rotatedAt: at });
    assert.deepEqual(await store.getRefreshToken(t.tokenHash), { ...t, rotatedAt: at });
    assert.equal(await store.rotateRefreshToken(uid('unknown'), at), null);
    assert.equal(await store.getRefreshToken(uid('unknown')), null);
  });

  test('ten concurrent rotations of one refresh token: exactly one sees it unrotated', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const t = refresh(account.id);
    await store.insertRefreshToken(t);
    const at = new Date('2030-01-10T00:00:00.000Z');
    const results = await Promise.all(Array.from({ length: 10 }, () => store.rotateRefreshToken(t.tokenHash, at)));
    assert.equal(results.filter((r) => r !== null && r.rotatedAt === null).length, 1);
  });

  test('revoking a refresh family revokes its tokens and the keys they minted, nothing else', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const [k1, k2, k3] = [
      await store.insertKey(newKey(account.id)),
      await store.insertKey(newKey(account.id)),
      await store.insertKey(newKey(account.id)),
    ];
    const familyId = uid('family');
    const earlier = new Date('2030-01-01T00:00:00.000Z');
    const family = [
      refresh(account.id, { familyId, keyId: k1.id, rotatedAt: earlier }),
      refresh(account.id, { familyId, keyId: k2.id }),
      refresh(account.id, { familyId, keyId: null, revokedAt: earlier }),
    ];
    const outsider = refresh(account.id, { keyId: k3.id });
    for (const t of [...family, outsider]) await store.insertRefreshToken(t);
    const at = new Date('2030-02-01T00:00:00.000Z');
    await store.revokeRefreshFamily(familyId, at);
    assert.deepEqual((await store.getRefreshToken(family[0].tokenHash))?.revokedAt, at);
    assert.deepEqual((await store.getRefreshToken(family[1].tokenHash))?.revokedAt, at);
    assert.deepEqual((await store.getRefreshToken(family[2].tokenHash))?.revokedAt, earlier, 'first revocation is kept');
    assert.deepEqual((await store.findKeyByHash(k1.hash))?.revokedAt, at);
    assert.deepEqual((await store.findKeyByHash(k2.hash))?.revokedAt, at);
    assert.equal((await store.getRefreshToken(outsider.tokenHash))?.revokedAt, null);
    assert.equal((await store.findKeyByHash(k3.hash))?.revokedAt, null);
  });

  test('issueGrant redeeming a code stores the key and refresh token and marks the code used and issued', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const c = code(account.id);
    await store.insertAuthCode(c);
    assert.deepEqual(await store.getAuthCode(c.codeHash), c);
    assert.equal(await store.getAuthCode(uid('unknown')), null);
    const { key, refresh: r } = issuance(account.id);
    const at = new Date('2030-01-01T00:01:00.000Z');
    const record = await store.issueGrant({ key, refresh: r, codeHash: c.codeHash, at });
    assert.deepEqual(record, { ...key, revokedAt: null, lastUsedAt: null });
    assert.deepEqual(await store.findKeyByHash(key.hash), record);
    assert.deepEqual(await store.getRefreshToken(r.tokenHash), r);
    assert.deepEqual(await store.getAuthCode(c.codeHash), { ...c, usedAt: at, issuedKeyId: key.id, issuedRefreshHash: r.tokenHash });
  });

  test('issueGrant on a used or unknown code answers null and writes nothing', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const c = code(account.id);
    await store.insertAuthCode(c);
    const used = new Date('2030-01-01T00:01:00.000Z');
    await store.redeemAuthCode(c.codeHash, used);
    const { key, refresh: r } = issuance(account.id);
    assert.equal(await store.issueGrant({ key, refresh: r, codeHash: c.codeHash }), null);
    assert.equal(await store.issueGrant({ key, refresh: r, codeHash: uid('unknown') }), null);
    assert.equal(await store.findKeyByHash(key.hash), null);
    assert.equal(await store.getRefreshToken(r.tokenHash), null);
    assert.deepEqual(await store.getAuthCode(c.codeHash), { ...c, usedAt: used });
  });

  test('issueGrant is all or nothing: a duplicate key or refresh hash leaves no key, token or used code', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const existing = await store.insertKey(newKey(account.id));
    const c = code(account.id);
    await store.insertAuthCode(c);
    const clash = issuance(account.id);
    clash.key.hash = existing.hash;
    await assert.rejects(store.issueGrant({ ...clash, codeHash: c.codeHash }), 'duplicate key hash');
    assert.equal(await store.getRefreshToken(clash.refresh.tokenHash), null);
    assert.deepEqual(await store.getAuthCode(c.codeHash), c);

    const taken = refresh(account.id);
    await store.insertRefreshToken(taken);
    const dup = issuance(account.id);
    dup.refresh.tokenHash = taken.tokenHash;
    await assert.rejects(store.issueGrant({ ...dup, codeHash: c.codeHash }), 'duplicate refresh hash');
    assert.equal(await store.findKeyByHash(dup.key.hash), null);
    assert.deepEqual(await store.getRefreshToken(taken.tokenHash), taken);
    assert.deepEqual(await store.getAuthCode(c.codeHash), c);

    const ok = issuance(account.id);
    assert.ok(await store.issueGrant({ ...ok, codeHash: c.codeHash }), 'the code is still redeemable after both failures');
  });

  test('issueGrant rotating a refresh token replaces it once; a rotated or revoked token issues nothing', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const first = issuance(account.id);
    assert.ok(await store.issueGrant({ ...first }), 'a grant without a code or token to spend');
    const at = new Date('2030-01-10T00:00:00.000Z');
    const second = issuance(account.id, first.refresh.familyId);
    assert.ok(await store.issueGrant({ ...second, rotatedHash: first.refresh.tokenHash, at }));
    assert.deepEqual(await store.getRefreshToken(first.refresh.tokenHash), { ...first.refresh, rotatedAt: at });
    assert.deepEqual(await store.getRefreshToken(second.refresh.tokenHash), second.refresh);

    const replay = issuance(account.id, first.refresh.familyId);
    assert.equal(await store.issueGrant({ ...replay, rotatedHash: first.refresh.tokenHash, at }), null);
    await store.revokeRefreshFamily(first.refresh.familyId, at);
    const afterRevoke = issuance(account.id, first.refresh.familyId);
    assert.equal(await store.issueGrant({ ...afterRevoke, rotatedHash: second.refresh.tokenHash, at }), null);
    for (const lost of [replay, afterRevoke]) {
      assert.equal(await store.findKeyByHash(lost.key.hash), null);
      assert.equal(await store.getRefreshToken(lost.refresh.tokenHash), null);
    }
    assert.equal((await store.getRefreshToken(second.refresh.tokenHash))?.rotatedAt, null);
  });

  test('ten concurrent issuances for one code over two connections: exactly one is stored', async () => {
    const store = get();
    const other = await makeStore();
    try {
      const account = await store.createAccount(uid('acct'));
      const c = code(account.id);
      await store.insertAuthCode(c);
      const attempts = Array.from({ length: 10 }, () => issuance(account.id));
      const results = await Promise.all(
        attempts.map((a, i) => (i % 2 === 0 ? store : other).issueGrant({ ...a, codeHash: c.codeHash })),
      );
      const winners = results.filter((r) => r !== null);
      assert.equal(winners.length, 1);
      const stored = await Promise.all(attempts.map((a) => store.findKeyByHash(a.key.hash)));
      assert.deepEqual(stored.filter((k) => k !== null).map((k) => k.id), [winners[0]?.id]);
      assert.equal((await store.getAuthCode(c.codeHash))?.issuedKeyId, winners[0]?.id);
    } finally {
      await other.close();
    }
  });
}
