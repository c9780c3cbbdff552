// Resilience against the emulator's injected faults: retries, rotation after a block, the WAF
// challenge, signature rejection, and the per-endpoint breaker opening and recovering.
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AppError } from '../../src/errors.ts';
import { createImpitSessionFactory, type SessionFactory } from '../../src/upstream/http-session.ts';
import type { Signer } from '../../src/upstream/signing/signer.ts';
import { clientFor, skipWithoutEmulator, startEmulator, type Emulator } from './emulator-harness.ts';

const skip = skipWithoutEmulator();
const COMMENTS = '/api/comment/list/';
const code = (expected: string, check: (e: AppError) => void = () => {}) => (e: AppError) => {
  assert.equal(e.code, expected);
  check(e);
  return true;
};

/** Impit sessions that record which session (identity) sent each platform request. */
function taggedSessions(log: Array<{ session: number; path: string }>): SessionFactory {
  const real = createImpitSessionFactory({ timeoutMs: 5_000 });
  let n = 0;
  return async (options) => {
    const session = await real(options);
    const id = (n += 1);
    return {
      ...session,
      browser: session.browser,
      userAgent: session.userAgent,
      fetch: (url, init) => {
        log.push({ session: id, path: new URL(url).pathname });
        return session.fetch(url, init);
      },
    };
  };
}

describe('fault recovery against the emulator', { skip }, () => {
  let emulator: Emulator;
  let videoId: string;
  const page = { cursor: '0', count: 20 };

  beforeEach(async () => {
    emulator = await startEmulator();
    videoId = emulator.manifest.videos.withReplies.id;
  });
  afterEach(async () => {
    mock.timers.reset();
    await emulator?.close();
  });

  for (const kind of ['status_5xx', 'status_429', 'reset'] as const) {
    test(`a ${kind} fault with probability < 1 is retried to success`, async () => {
      const { client, outcomes } = clientFor(emulator, { maxAttempts: 8 });
      emulator.setFaults({ rules: [{ path: COMMENTS, probability: 0.4, kind, status: 503, retryAfterSeconds: 0 }] });
      for (let i = 0; i < 6; i += 1) {
        const result = await client.getComments(videoId, page);
        assert.ok(result.data.items.length > 0);
      }
      assert.ok(outcomes.some((o) => o.outcome !== 'ok'), 'some requests did fail and were retried');
      await client.close();
    });
  }

  test('with probability 1: 5xx is upstream_error, 429 is upstream_blocked with the platform\'s Retry-After, reset is upstream_error', async () => {
    const { client } = clientFor(emulator, { maxAttempts: 2 });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'status_5xx', status: 503 }] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_error'));
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'status_429', retryAfterSeconds: 7 }] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_blocked', (e) => assert.equal(e.retryAfterSeconds, 7)));
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'reset' }] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_error'));
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'malformed_json' }] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_error'));
    await client.close();
  });

  test('a body that is not JSON is retried once on another attempt, and answered when the retry reads JSON', async () => {
    // Lifted as soon as the first malformed answer is reported, so exactly one attempt reads it.
    const outcomes: string[] = [];
    const { client } = clientFor(emulator, { maxAttempts: 4 }, {
      onOutcome: (e) => {
        outcomes.push(e.outcome);
        if (e.outcome !== 'ok') emulator.setFaults({ rules: [] });
      },
    });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'malformed_json' }] });
    const result = await client.getComments(videoId, page);
    assert.ok(result.data.items.length > 0);
    assert.deepEqual(outcomes, ['upstream_error', 'ok']);
    await client.close();
  });

  test('a body that stays malformed is retried only once, then fails as upstream_error', async () => {
    const { client, outcomes } = clientFor(emulator, { maxAttempts: 4 });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'malformed_json' }] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_error'));
    assert.equal(outcomes.length, 2, 'one attempt and one retry, not maxAttempts');
    await client.close();
  });

  test('after an empty 200 the session refreshes its msToken and retries once, then a new identity takes over', async () => {
    const log: Array<{ session: number; path: string }> = [];
    const { client, outcomes } = clientFor(emulator, { identityCount: 1 }, {
      createSession: taggedSessions(log),
      // Lift the fault as soon as the first block is reported, so exactly one attempt is refused.
      onOutcome: (e) => {
        outcomes.push(e);
        if (e.outcome === 'blocked') emulator.setFaults({ rules: [] });
      },
    });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'empty_200' }] });
    const result = await client.getComments(videoId, page);
    assert.ok(result.data.items.length > 0);
    assert.deepEqual(outcomes.map((o) => o.outcome), ['blocked', 'ok']);
    const calls = log.filter((l) => l.path === COMMENTS);
    assert.equal(calls.length, 3, 'empty, empty again after the msToken refresh, then answered');
    assert.equal(calls[0].session, calls[1].session, 'the first retry stays on the same identity');
    assert.notEqual(calls[1].session, calls[2].session, 'the attempt after the block came from a different identity');
    const between = log.slice(log.indexOf(calls[0]) + 1, log.indexOf(calls[1]));
    assert.deepEqual(between, [{ session: calls[0].session, path: '/' }], 'the home page was visited between the two tries');
    await client.close();
  });

  test('a captcha answer is upstream_blocked once attempts run out', async () => {
    const { client } = clientFor(emulator, { maxAttempts: 2 });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'captcha' }] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_blocked', (e) => assert.ok(e.retryAfterSeconds)));
    await client.close();
  });

  test('the WAF challenge on a page is solved and the page then read', async () => {
    await emulator.close();
    emulator = await startEmulator({ wafRate: 1 });
    const { client, outcomes } = clientFor(emulator);
    // Force the video-page path: the API answers with the platform's empty 200.
    emulator.setFaults({ rules: [{ path: '/api/item/detail/', probability: 1, kind: 'empty_200' }] });
    const id = emulator.manifest.videos.withReplies.id;
    const video = await client.getVideo(id);
    assert.equal(video.data.id, id);
    assert.ok(outcomes.some((o) => o.endpoint === 'page:video' && o.outcome === 'ok'));
    await client.close();
  });

  test('a wrongly signed request is rejected as blocked', async () => {
    const corrupt: Signer = {
      profile: 'corrupt',
      sign(url) {
        const signed = new URL(url);
        signed.search = `${signed.search.slice(1)}&X-Bogus=DFSzswVYLFJANSqMt8kkae9WX7ro`;
        return signed;
      },
    };
    const { client, outcomes } = clientFor(emulator, { maxAttempts: 2 }, { signer: corrupt });
    await assert.rejects(client.getComments(videoId, page), code('upstream_blocked'));
    assert.ok(outcomes.every((o) => o.outcome === 'blocked'));
    await client.close();
  });

  test('the breaker opens under a 100% 5xx fault, fails fast, and recovers after the fault is lifted', async () => {
    // cockatiel's breaker reads Date.now(); the client's own pacing keeps a real monotonic clock.
    const realClock = { now: () => performance.timeOrigin + performance.now() };
    mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { client, outcomes } = clientFor(
      emulator,
      { maxAttempts: 1, breaker: { failureThreshold: 3, halfOpenAfterMs: 1_000 } },
      { clock: realClock },
    );
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'status_5xx', status: 500 }] });
    for (let i = 0; i < 3; i += 1) await assert.rejects(client.getComments(videoId, page), code('upstream_error'));
    await assert.rejects(client.getComments(videoId, page), code('upstream_blocked', (e) => assert.equal(e.retryAfterSeconds, 1)));
    assert.equal(outcomes.length, 3, 'an open breaker sends nothing to the platform');
    emulator.setFaults({ rules: [] });
    await assert.rejects(client.getComments(videoId, page), code('upstream_blocked'));
    mock.timers.tick(1_001);
    const result = await client.getComments(videoId, page);
    assert.ok(result.data.items.length > 0);
    await client.close();
  });
});
