// JSON-LD that survives RDF: each resource type is expanded, written as N-Quads (every typed literal
// checked against its datatype's lexical space), read back, framed and compacted with its own
// context, and compared with the original. Then two deployments answer the same video and
// transcript: their documents must be the same RDF although each names its own context URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REELAY_VOCAB, socialContext, toTranscript, withContext } from '../../src/activitystreams/index.ts';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { GOLDEN_CASES, NS } from './golden-cases.ts';

type Json = Record<string, any>;
type Loader = (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;
type JsonLd = {
  expand(input: unknown, options: { documentLoader: Loader }): Promise<Json[]>;
  toRDF(input: unknown, options: { format: 'application/n-quads'; documentLoader?: Loader }): Promise<string>;
  fromRDF(input: string, options: { format: 'application/n-quads' }): Promise<Json[]>;
  frame(input: unknown, frame: Json, options: { documentLoader: Loader; embed: '@always'; omitGraph: boolean }): Promise<Json>;
  canonize(input: unknown, options: { algorithm: 'RDFC-1.0'; format: 'application/n-quads'; documentLoader: Loader }): Promise<string>;
};

// A non-literal specifier keeps tsc from demanding type declarations jsonld does not ship.
const jsonld = ((await import('jsonld' as string)) as { default: JsonLd }).default;

const AS_URL = 'https://www.w3.org/ns/activitystreams';
const asContext = JSON.parse(readFileSync(new URL('../fixtures/jsonld/activitystreams.jsonld', import.meta.url), 'utf8')) as { '@context': Json };
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_JSON = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON';

/** Offline: the ActivityStreams context, and each social context URL mapped to the document it serves. */
function loaderFor(contexts: Record<string, unknown>): Loader {
  return async (url) => {
    const bare = url.replace(/#.*$/, '');
    const document = bare === AS_URL ? asContext : contexts[bare];
    if (document === undefined) throw new Error(`offline test: no document for ${url}`);
    return { contextUrl: null, documentUrl: url, document };
  };
}
const documentLoader = loaderFor({ [NS]: socialContext() });

/** Lexical spaces (XML Schema 1.1 Part 2) of every datatype reelay's documents may produce. */
const LEXICAL: Record<string, (lexical: string) => boolean> = {
  [`${XSD}string`]: () => true,
  [`${XSD}integer`]: (v) => /^[+-]?\d+$/.test(v),
  [`${XSD}nonNegativeInteger`]: (v) => /^\+?\d+$/.test(v) || v === '-0',
  [`${XSD}boolean`]: (v) => /^(true|false|1|0)$/.test(v),
  [`${XSD}dateTime`]: (v) => /^-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/.test(v),
  [`${XSD}duration`]: (v) => /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/.test(v),
  [RDF_JSON]: (v) => {
    try {
      JSON.parse(v);
      return true;
    } catch {
      return false;
    }
  },
};

/** One message per typed literal whose datatype is unknown here or whose lexical form is invalid. */
function badLiterals(nquads: string): string[] {
  const errors: string[] = [];
  for (const match of nquads.matchAll(/"((?:[^"\\]|\\.)*)"\^\^<([^>]+)>/g)) {
    const lexical = JSON.parse(`"${match[1]}"`) as string;
    const valid = LEXICAL[match[2]];
    if (!valid) errors.push(`unexpected datatype <${match[2]}> for "${lexical}"`);
    else if (!valid(lexical)) errors.push(`"${lexical}" is not a valid <${match[2]}>`);
  }
  return errors;
}

/** Terms whose arrays are RDF lists; every other array is a set in RDF (order and duplicates are not kept). */
const LIST_TERMS = new Set(Object.entries(asContext['@context']).filter(([, def]) => def?.['@container'] === '@list').map(([term]) => term));

/**
 * The comparable form of a document: each property's values as a set (a one-value array and its
 * value are the same statement; equal members are one), lists kept in order, numbers and booleans
 * as their lexical form (a typed literal read back from RDF compacts to its lexical string), and
 * no blank-node labels; an empty set (not a list) is no statement at all. A node met twice (one author of two comments) is one node in RDF, so each
 * occurrence reads back with the union of what all occurrences said: equal only if they agreed.
 */
function comparable(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(comparable);
  const out: Json = {};
  // Keys in one order, so that sorting a set by its members' JSON does not depend on key order.
  for (const [key, member] of Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    if (key === '@context') out[key] = member;
    else if (LIST_TERMS.has(key)) out[key] = { '@list': [member].flat().map(comparable) };
    else if (key === 'id' && typeof member === 'string' && member.startsWith('_:')) continue;
    // An empty set states nothing in RDF: the shape rule's `[]` and absence read back alike.
    else if (Array.isArray(member) && member.length === 0) continue;
    else out[key] = [...new Set([member].flat().map((m) => JSON.stringify(comparable(m))))].sort().map((m) => JSON.parse(m));
  }
  return out;
}

type RoundTrip = { nquads: string; back: Json };

async function roundTrip(doc: Json, loader: Loader = documentLoader): Promise<RoundTrip> {
  const expanded = await jsonld.expand(doc, { documentLoader: loader });
  const nquads = await jsonld.toRDF(expanded, { format: 'application/n-quads' });
  const dataset = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  // Pages have no id of their own: the root is the one node of the page's type.
  const root = typeof doc.id === 'string' ? { '@id': doc.id } : { '@type': doc.type };
  const back = await jsonld.frame(dataset, { '@context': doc['@context'], ...root }, { documentLoader: loader, embed: '@always', omitGraph: true });
  return { nquads, back };
}

const transcript = withContext(
  toTranscript({
    videoUrl: 'https://www.tiktok.com/@ann/video/7300000000000000001',
    subtitle: { LanguageCodeName: 'eng-US', Url: 'https://v16-webapp.tiktok.com/sub/7300000000000000001.vtt', Source: 'ASR' },
    vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there\n\n00:00:01.500 --> 00:00:03.000\n"Quoted" line\n',
    language: 'en-US',
  }),
  NS,
) as Json;

const commentsPage = GOLDEN_CASES.find((c) => c.name === 'video-comments')?.build() as Json;
const note = { '@context': commentsPage['@context'], ...commentsPage.orderedItems[0] };
const CASES: Array<[string, Json]> = [
  ...GOLDEN_CASES.map((golden): [string, Json] => [golden.name, golden.build() as Json]),
  ['a single Note', note],
  ['a Transcript', transcript],
];

describe('JSON-LD round trip through RDF', () => {
  for (const [name, doc] of CASES) {
    test(`${name}: expanded to N-Quads with valid literals, read back and compacted, equals the original`, async () => {
      const { nquads, back } = await roundTrip(doc);
      assert.deepEqual(badLiterals(nquads), []);
      assert.deepEqual(comparable(back), comparable(doc));
    });
  }

  test('a video\'s duration is an integer number of seconds in reelay\'s vocabulary, not an xsd:duration', async () => {
    const video = CASES.find(([name]) => name === 'video-detail')?.[1] as Json;
    assert.equal(typeof video.duration, 'number');
    const { nquads } = await roundTrip(video);
    assert.ok(nquads.includes(`<${REELAY_VOCAB}durationSeconds> "${video.duration}"^^<${XSD}integer>`), 'duration in seconds');
    assert.doesNotMatch(nquads, /XMLSchema#duration>/);
  });

  test('a transcript is a node of its own, not its video', async () => {
    const { nquads } = await roundTrip(transcript);
    const subjects = new Set([...nquads.matchAll(/^<([^>]+)>/gm)].map((m) => m[1]));
    assert.deepEqual([...subjects], ['https://www.tiktok.com/@ann/video/7300000000000000001#transcript-en-US']);
  });

  test('the comparison sees a lost statement and an invalid literal', async () => {
    const broken = { ...transcript, bogusTerm: 'dropped: no IRI', size: 'many' };
    const { nquads, back } = await roundTrip(broken);
    assert.notDeepEqual(comparable(back), comparable(broken));
    assert.deepEqual(badLiterals(nquads), ['"many" is not a valid <http://www.w3.org/2001/XMLSchema#integer>']);
    assert.deepEqual(badLiterals(`<a:x> <a:d> "178"^^<${XSD}duration> .`), [`"178" is not a valid <${XSD}duration>`]);
  });
});

describe('two deployments, one vocabulary', () => {
  let emulator: Emulator;
  let a: Stack;
  let b: Stack;
  before(async () => {
    emulator = await startEmulator({ seed: 1 });
    a = await startStack({ emulatorInstance: emulator, config: { publicUrl: 'https://reelay-a.example' } });
    b = await startStack({ emulatorInstance: emulator, config: { publicUrl: 'https://data.example.org/reelay' } });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await emulator?.close();
  });

  /** Each deployment's context, as it serves it at the URL its documents name. */
  async function servedContexts(): Promise<Record<string, unknown>> {
    const contexts: Record<string, unknown> = {};
    for (const [stack, url] of [[a, 'https://reelay-a.example/ns/social'], [b, 'https://data.example.org/reelay/ns/social']] as const) {
      const res = await stack.app.rest.inject('/ns/social');
      assert.equal(res.statusCode, 200);
      contexts[url] = JSON.parse(res.body);
    }
    return contexts;
  }

  test('the same video and transcript read through two deployments are the same RDF', async () => {
    const loader = loaderFor(await servedContexts());
    const { id, languages } = emulator.manifest.videos.withTranscripts;
    // Minimal: media URLs and their cookies are signed for the identity and moment of each fetch, so
    // they differ between any two reads; every other statement must be identical.
    // A minimal transcript is small (minimal drops the WebVTT text and the id): a few statements.
    for (const [path, least] of [[`/v1/platform/videos/${id}?projection_preset=minimal`, 6], [`/v1/platform/videos/${id}/transcripts/${languages[0]}?projection_preset=minimal`, 3]] as const) {
      const [fromA, fromB] = await Promise.all([a.get(path), b.get(path)]);
      assert.equal(fromA.status, 200, fromA.body);
      assert.equal(fromB.status, 200, fromB.body);
      assert.notDeepEqual(fromA.json.data['@context'], fromB.json.data['@context'], 'each names its own context URL');
      const [rdfA, rdfB] = await Promise.all(
        [fromA, fromB].map((res) => jsonld.canonize(res.json.data, { algorithm: 'RDFC-1.0', format: 'application/n-quads', documentLoader: loader })),
      );
      assert.ok(rdfA.trim().split('\n').length >= least, `${path}: ${rdfA}`);
      assert.equal(rdfA, rdfB, path);
      assert.doesNotMatch(rdfA, /reelay-a\.example|data\.example\.org/, 'no term IRI names a deployment');
    }
  });

  test('/ns/vocab describes, as RDF, every class and property IRI the served context uses', async () => {
    const res = await b.app.rest.inject({ url: '/ns/vocab', headers: { accept: 'application/ld+json' } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/ld\+json/);
    const nquads = await jsonld.toRDF(JSON.parse(res.body), { format: 'application/n-quads', documentLoader: loaderFor({}) });
    assert.deepEqual(badLiterals(nquads), []);
    const context = (Object.values(await servedContexts())[0] as Json)['@context'] as Json;
    const iris = Object.entries(context)
      .filter(([term]) => !term.startsWith('@') && term !== 'xsd' && term !== 'reelay')
      .map(([, def]) => (typeof def === 'string' ? def : def['@id']));
    assert.ok(iris.length > 30);
    for (const iri of iris) {
      assert.match(nquads, new RegExp(`^<${iri}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/(1999/02/22-rdf-syntax-ns#Property|2000/01/rdf-schema#Class)> \\.$`, 'm'), iri);
      assert.match(nquads, new RegExp(`^<${iri}> <http://www.w3.org/2000/01/rdf-schema#comment> "`, 'm'), `${iri} has a comment`);
    }
    const page = await b.app.rest.inject({ url: '/ns/vocab', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    for (const iri of iris) assert.ok(page.body.includes(iri), `the HTML page lists ${iri}`);
  });
});
