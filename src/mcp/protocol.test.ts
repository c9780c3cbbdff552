import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseAccept } from './protocol.ts';

test('a missing, wildcard or one-sided Accept becomes JSON plus SSE so the SDK answers instead of 406', () => {
  for (const accept of [undefined, '', '*/*', 'application/json', 'text/event-stream', 'application/json;q=0.9', 'application/*']) {
    assert.equal(normaliseAccept(accept), 'application/json, text/event-stream', String(accept));
  }
});

test('an Accept that wants neither JSON nor SSE is kept, so the transport can refuse it', () => {
  assert.equal(normaliseAccept('text/html'), 'text/html');
});
