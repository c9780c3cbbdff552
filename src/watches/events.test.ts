import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveEvents } from './events.ts';
import type { Observation } from './observe.ts';

const video = (n: number, published: string) => ({ type: 'Video', id: `https://p/@a/video/${n}`, published });
const person = (name: string, summary = 'bio', icon = 'https://cdn/a.jpg?x-expires=1') => ({ type: 'Person', name, summary, icon: { url: icon } });
const seen = (over: Partial<Observation>): Observation => ({ metrics: {}, main: person('A'), videos: [], live: null, ...over });

test('the first run is a baseline: no events, whatever it sees', () => {
  const { events } = deriveEvents('user', null, seen({ videos: [video(1, '2025-01-01T00:00:00Z')], live: { id: 'l', internalId: '1' } }));
  assert.deepEqual(events, []);
});

test('a video newer than every one seen before is video.published; an old pinned one is not', () => {
  const first = deriveEvents('user', null, seen({ videos: [video(1, '2024-01-01T00:00:00Z'), video(2, '2025-01-01T00:00:00Z')] }));
  const next = deriveEvents('user', first.state, seen({ videos: [video(9, '2023-01-01T00:00:00Z'), video(3, '2025-02-01T00:00:00Z'), video(2, '2025-01-01T00:00:00Z')] }));
  assert.deepEqual(next.events.map((e) => [e.type, e.object.id]), [['video.published', 'https://p/@a/video/3']]);
});

test('live.started then live.ended carry the live object as seen', () => {
  const live = { id: 'https://p/@a/live', internalId: '77', viewerCount: 5 };
  const a = deriveEvents('user', null, seen({}));
  const b = deriveEvents('user', a.state, seen({ live }));
  assert.deepEqual(b.events, [{ type: 'live.started', object: live }]);
  const c = deriveEvents('user', b.state, seen({ live: null }));
  assert.deepEqual(c.events, [{ type: 'live.ended', object: live }]);
});

test('a new room between two runs is an end and a start', () => {
  const a = deriveEvents('live', null, seen({ live: { id: 'x', internalId: '1' } }));
  const b = deriveEvents('live', a.state, seen({ live: { id: 'x', internalId: '2' } }));
  assert.deepEqual(b.events.map((e) => [e.type, e.object.internalId]), [['live.ended', '1'], ['live.started', '2']]);
});

test('user.changed names what changed; a re-signed avatar URL is no change', () => {
  const a = deriveEvents('user', null, seen({ main: person('A') }));
  assert.deepEqual(deriveEvents('user', a.state, seen({ main: person('A', 'bio', 'https://cdn/a.jpg?x-expires=2') })).events, []);
  const b = deriveEvents('user', a.state, seen({ main: person('B', 'new bio') }));
  assert.equal(b.events.length, 1);
  assert.deepEqual(b.events[0].changes, { name: { from: 'A', to: 'B' }, summary: { from: 'bio', to: 'new bio' } });
});
