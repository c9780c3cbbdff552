// Cancellation and isolation in the platform client, against the emulator: a caller that gives up
// aborts its platform request without blaming the platform or the identity, and one slow endpoint
// cannot take the request slots of the others.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors.ts';
import type { IdentityHealthStore } from '../../src/upstream/health.ts';
import { createMemoryIdentityHealthStore } from '../../src/upstream/health.ts';
import { createImpitSessionFactory, type SessionFactory } from '../../src/upstream/http-session.ts';
import { clientFor, skipWithoutEmulator, startEmulator, type Emulator } from './emulator-harness.ts';

const skip = skipWithoutEmulator();
const COMMENTS = '/api/comment/list/';

/** Impit sessions that report each platform request's path and the signal it was sent with. */
function watchedSessions(onFetch: (path: string, signal: AbortSignal | undefined) => void): SessionFactory {
  const real = createImpitSessionFactory({ timeoutMs: 5_000 });
  return async (options) => {
    const session = await real(options);
    return {
      ...session,
      browser: session.browser,
      userAgent: session.userAgent,
      fetch: (url, init) => {
        onFetch(new URL(url).pathname, init?.signal);
        return session.fetch(url, init);
      },
    };
  };
}

describe('cancellation and bulkheads against the emulator', { skip }, () => {
  let emulator: Emulator;
  let videoId: string;
  const page = { cursor: '0', count: 20 };

  beforeEach(async () => {
    emulator = await startEmulator();
    videoId = emulator.manifest.videos.withReplies.id;
  });
  afterEach(async () => {
    await emulator?.close();
  });

  test('a caller that gives up gets its reason at once, its platform request is aborted, and neither breaker nor identity health counts it', async () => {
    const sent = Promise.withResolvers<AbortSignal | undefined>();
    const recorded: string[] = [];
    const memory = createMemoryIdentityHealthStore();
    const health: IdentityHealthStore = {
      get: (id) => memory.get(id),
      record: (id, outcome, nowMs) => {
        recorded.push(outcome);
        return memory.record(id, outcome, nowMs);
      },
    };
    const outcomes: string[] = [];
    const settled = Promise.withResolvers<void>();
    const { client } = clientFor(
      emulator,
      { maxAttempts: 1, breaker: { failureThreshold: 1, halfOpenAfterMs: 600_000 } },
      {
        identityHealth: health,
        createSession: watchedSessions((path, signal) => path === COMMENTS && sent.resolve(signal)),
        onOutcome: (e) => {
          outcomes.push(e.outcome);
          settled.resolve();
        },
      },
    );
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'latency', latencyMs: 3_000 }] });
    const controller = new AbortController();
    const call = client.withSignal(controller.signal).getComments(videoId, page);
    const requestSignal = await sent.promise;
    const reason = new AppError('upstream_timeout', 'The request deadline passed before the platform answered.');
    controller.abort(reason);
    await assert.rejects(call, (error) => error === reason);
    assert.equal(requestSignal?.aborted, true, 'the platform request itself was aborted');
    await settled.promise;
    assert.deepEqual(outcomes, ['cancelled']);
    assert.ok(!recorded.includes('cancelled') && !recorded.includes('timeout'), `health saw ${recorded.join(', ')}`);
    emulator.setFaults({ rules: [] });
    // A breaker that had counted the abandoned request (threshold 1) would refuse this call.
    const result = await client.getComments(videoId, page);
    assert.ok(result.data.items.length > 0);
    await client.close();
  });

  test('a 400 the input provoked counts against neither breaker nor identity health', async () => {
    const recorded: string[] = [];
    const memory = createMemoryIdentityHealthStore();
    const health: IdentityHealthStore = {
      get: (id) => memory.get(id),
      record: (id, outcome, nowMs) => {
        recorded.push(outcome);
        return memory.record(id, outcome, nowMs);
      },
    };
    const { client } = clientFor(emulator, { maxAttempts: 1, breaker: { failureThreshold: 1, halfOpenAfterMs: 600_000 } }, { identityHealth: health });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'status_5xx', status: 400 }] });
    await assert.rejects(client.getComments(videoId, page), (e: AppError) => e.code === 'upstream_error');
    assert.deepEqual(recorded, []);
    emulator.setFaults({ rules: [] });
    const result = await client.getComments(videoId, page);
    assert.ok(result.data.items.length > 0, 'the breaker (threshold 1) did not open');
    await client.close();
  });

  test('a caller whose signal is already aborted sends nothing to the platform', async () => {
    const paths: string[] = [];
    const { client } = clientFor(emulator, {}, { createSession: watchedSessions((path) => paths.push(path)) });
    const reason = new AppError('upstream_timeout', 'gone');
    await assert.rejects(client.withSignal(AbortSignal.abort(reason)).getComments(videoId, page), (error) => error === reason);
    assert.ok(!paths.includes(COMMENTS));
    await client.close();
  });

  test('a slow endpoint fills only its own bulkhead: its next caller is refused at once while other endpoints answer', async () => {
    // 2 process slots: each endpoint may run 1 request and queue 1.
    const { client } = clientFor(emulator, { maxConcurrent: 2, maxAttempts: 1 });
    emulator.setFaults({ rules: [{ path: COMMENTS, probability: 1, kind: 'latency', latencyMs: 3_000 }] });
    const controller = new AbortController();
    const slow = client.withSignal(controller.signal);
    const running = slow.getComments(videoId, page);
    const queued = slow.getComments(videoId, { cursor: '20', count: 20 });
    await assert.rejects(slow.getComments(videoId, { cursor: '40', count: 20 }), (e: AppError) => {
      assert.equal(e.code, 'upstream_blocked');
      assert.equal(e.retryAfterSeconds, 1);
      return true;
    });
    const video = await client.getVideo(videoId);
    assert.equal(video.data.id, videoId);
    const user = await client.getUser(emulator.manifest.users.public);
    assert.ok(user.data.user.id);
    controller.abort(new AppError('upstream_timeout', 'done'));
    const settled = await Promise.allSettled([running, queued]);
    assert.deepEqual(settled.map((s) => s.status), ['rejected', 'rejected']);
    await client.close();
  });
});
