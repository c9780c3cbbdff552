// Content negotiation: which representation an Accept header gets, q-values and specificity
// honoured, and which headers leave nothing acceptable (406).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate, offeredTypes, type OfferSet } from './negotiate.ts';

const nameOf = (accept: string | undefined, set: OfferSet = 'json') => negotiate(accept, set)?.name;

test('no Accept, a blank one and */* get plain JSON', () => {
  assert.equal(nameOf(undefined), 'json');
  assert.equal(nameOf('  '), 'json');
  assert.equal(nameOf('*/*'), 'json');
  assert.equal(nameOf('application/*'), 'json');
  assert.equal(nameOf('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), 'json', "a browser's Accept");
});

test('each JSON media type is answered as itself, with its parameters', () => {
  assert.equal(nameOf('application/json'), 'json');
  assert.equal(nameOf('application/json; charset=utf-8'), 'json');
  assert.equal(nameOf('application/ld+json'), 'ld+json');
  assert.equal(nameOf('application/ld+json; profile="https://www.w3.org/ns/activitystreams"'), 'ld+json');
  assert.equal(nameOf('application/activity+json'), 'activity+json');
  assert.match(negotiate('application/ld+json', 'json')!.contentType, /^application\/ld\+json; profile="https:\/\/www\.w3\.org\/ns\/activitystreams"$/);
  assert.equal(negotiate('application/activity+json', 'json')!.contentType, 'application/activity+json');
});

test('q-values decide, then the more specific range, then the client\'s order', () => {
  assert.equal(nameOf('application/json;q=0.5, application/activity+json'), 'activity+json');
  assert.equal(nameOf('application/xml, application/activity+json;q=0.1'), 'activity+json');
  assert.equal(nameOf('application/ld+json;q=0.9, application/json;q=0.8'), 'ld+json');
  assert.equal(nameOf('application/*;q=0.2, application/ld+json;q=0.3'), 'ld+json');
  assert.equal(nameOf('application/activity+json, application/json'), 'activity+json');
  assert.equal(nameOf('*/*;q=0.1, application/ld+json;q=0'), 'json', 'q=0 refuses a type a wildcard would allow');
});

test('transcripts also offer WebVTT, and q-values choose between it and JSON', () => {
  assert.equal(nameOf('text/vtt', 'transcript'), 'vtt');
  assert.equal(nameOf('text/*', 'transcript'), 'vtt');
  assert.equal(nameOf('text/vtt;q=0.5, application/json', 'transcript'), 'json');
  assert.equal(nameOf('application/json;q=0.1, text/vtt', 'transcript'), 'vtt');
  assert.equal(nameOf(undefined, 'transcript'), 'json');
  assert.equal(negotiate('text/vtt', 'transcript')!.contentType, 'text/vtt; charset=utf-8');
});

test('nothing acceptable is undefined (the route answers 406)', () => {
  for (const accept of ['application/xml', 'text/html', 'text/vtt', 'image/*', 'application/json;q=0', 'application/ld+json; profile="https://example.com/other"', 'application/json; charset=latin1', 'nonsense']) {
    assert.equal(negotiate(accept, 'json'), undefined, accept);
  }
  assert.equal(negotiate('application/xml', 'transcript'), undefined);
});

test('the same Accept answers the same from the memo as when first parsed', () => {
  const accept = 'application/activity+json;q=0.7, application/ld+json;q=0.6';
  const first = negotiate(accept, 'json');
  assert.equal(negotiate(accept, 'json'), first);
  assert.equal(negotiate(accept, 'transcript')?.name, 'activity+json');
  assert.equal(negotiate('text/vtt', 'json'), undefined, 'the memo is kept per offer set');
  assert.equal(negotiate('text/vtt', 'transcript')?.name, 'vtt');
});

test('offeredTypes names what a 406 lists', () => {
  assert.deepEqual(offeredTypes('json'), ['application/json; charset=utf-8', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', 'application/activity+json']);
  assert.equal(offeredTypes('transcript').at(-1), 'text/vtt; charset=utf-8');
});

test('a history offers JSON, CSV and an SVG chart, JSON first on a tie, and nothing else', () => {
  assert.equal(nameOf(undefined, 'history'), 'json');
  assert.equal(nameOf('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'history'), 'json', "a browser's Accept");
  assert.equal(nameOf('text/csv', 'history'), 'csv');
  assert.equal(nameOf('image/svg+xml', 'history'), 'svg');
  assert.equal(nameOf('image/*', 'history'), 'svg');
  assert.equal(nameOf('image/svg+xml;q=0.5, text/csv', 'history'), 'csv');
  assert.equal(negotiate('image/svg+xml', 'history')!.contentType, 'image/svg+xml; charset=utf-8');
  for (const accept of ['application/ld+json', 'application/activity+json', 'text/vtt', 'image/png', 'application/xml']) assert.equal(negotiate(accept, 'history'), undefined, accept);
  assert.deepEqual(offeredTypes('history'), ['application/json; charset=utf-8', 'text/csv; charset=utf-8', 'image/svg+xml; charset=utf-8']);
});
