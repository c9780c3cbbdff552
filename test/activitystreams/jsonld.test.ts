// Expands real mapper outputs with the jsonld library, offline (AS2 and reelay contexts preloaded),
// and fails when any key of the compact output is dropped or only reaches a blank-node IRI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REELAY_VOCAB, socialContext } from '../../src/activitystreams/index.ts';
import { GOLDEN_CASES, NS } from './golden-cases.ts';

type Json = Record<string, unknown>;
type JsonLd = { expand(input: unknown, options: { documentLoader: (url: string) => Promise<unknown> }): Promise<unknown[]> };

// A non-literal specifier keeps tsc from demanding type declarations jsonld does not ship.
const jsonld = ((await import('jsonld' as string)) as { default: JsonLd }).default;

const AS_URL = 'https://www.w3.org/ns/activitystreams';
const asContext = JSON.parse(readFileSync(new URL('../fixtures/jsonld/activitystreams.jsonld', import.meta.url), 'utf8')) as { '@context': Json };
const ourContext = socialContext();

async function documentLoader(url: string) {
  const bare = url.replace(/#.*$/, '');
  const documents: Record<string, unknown> = { [AS_URL]: asContext, [NS]: ourContext };
  if (!(bare in documents)) throw new Error(`offline test: no document for ${url}`);
  return { contextUrl: null, documentUrl: url, document: documents[bare] };
}

/** The IRI a compact key expands to under the two contexts, or undefined when neither defines it. */
function termIri(key: string): string | undefined {
  const def = ourContext['@context'][key] ?? asContext['@context'][key];
  const id = typeof def === 'string' ? def : (def as Json | undefined)?.['@id'];
  if (typeof id !== 'string') return undefined;
  const [prefix, rest] = id.split(/:(.*)/s);
  const base = asContext['@context'][prefix];
  return rest !== undefined && typeof base === 'string' && !rest.startsWith('//') ? base + rest : id;
}

/** Walks compact and expanded forms side by side; one message per key that did not survive. */
function lostKeys(compact: Json, expanded: Json, path: string): string[] {
  const errors: string[] = [];
  for (const [key, value] of Object.entries(compact)) {
    if (key === '@context') continue;
    const iri = termIri(key);
    if (iri === undefined) {
      errors.push(`${path}.${key}: no term definition`);
      continue;
    }
    if (iri === '@id' || iri === '@type') {
      const got = [expanded[iri]].flat();
      if (got.length === 0 || got.some((v) => typeof v !== 'string' || v.startsWith('_:'))) errors.push(`${path}.${key}: ${iri} lost`);
      continue;
    }
    let values = expanded[iri] as Json[] | undefined;
    if (!Array.isArray(values) || iri.startsWith('_:')) {
      errors.push(`${path}.${key}: dropped by expansion`);
      continue;
    }
    if (values.length === 1 && Array.isArray(values[0]['@list'])) values = values[0]['@list'] as Json[];
    if (values.length === 1 && values[0]['@type'] === '@json') continue;
    [value].flat().forEach((member, i) => {
      if (typeof member === 'object' && member !== null) errors.push(...lostKeys(member as Json, values[i] ?? {}, `${path}.${key}[${i}]`));
    });
  }
  return errors;
}

async function check(doc: Json): Promise<string[]> {
  const [expanded] = (await jsonld.expand(doc, { documentLoader })) as Json[];
  return lostKeys(doc, expanded ?? {}, '$');
}

for (const golden of GOLDEN_CASES) {
  test(`every key of ${golden.name} survives JSON-LD expansion to a real IRI`, async () => {
    assert.deepEqual(await check(golden.build() as Json), []);
  });
}

test('a key missing from the contexts is reported as lost', async () => {
  const doc = { '@context': ['https://www.w3.org/ns/activitystreams#', NS], type: 'Note', id: 'https://x.test/1', bogusTerm: 1 };
  assert.deepEqual(await check(doc), ['$.bogusTerm: no term definition']);
});

test('the social context gives counts xsd:integer, flags xsd:boolean, headers @json, and every term an IRI in the fixed vocabulary', () => {
  const ctx = ourContext['@context'] as Record<string, Json>;
  assert.equal(ctx.likeCount['@type'], 'xsd:integer');
  assert.equal(ctx.isPinned['@type'], 'xsd:boolean');
  assert.equal(ctx.headers['@type'], '@json');
  assert.equal(ctx.internalId, `${REELAY_VOCAB}internalId`);
  assert.deepEqual(ctx.duration, { '@id': `${REELAY_VOCAB}durationSeconds`, '@type': 'xsd:integer' });
  for (const [term, def] of Object.entries(ctx)) {
    if (term.startsWith('@') || term === 'xsd' || term === 'reelay') continue;
    const id = typeof def === 'string' ? def : (def['@id'] as string);
    assert.ok(id.startsWith(REELAY_VOCAB), `${term} → ${id}`);
  }
});
