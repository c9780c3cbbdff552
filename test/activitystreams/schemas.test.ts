// The zod schemas against the golden outputs of real samples, in every projection preset, and the
// rules they hold: arrays always present, dropped members absent, counts integers, no stray members.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GOLDEN_CASES, type GoldenCase } from './golden-cases.ts';
import { project, type Preset } from '../../src/activitystreams/projection.ts';
import { namedSchemaFor, toJsonSchemas } from '../../src/activitystreams/schema-presets.ts';
import { NAMED_SCHEMAS, type ResultSchemaName } from '../../src/activitystreams/schemas.ts';

const PRESETS: Preset[] = ['full', 'standard', 'minimal'];

function schemaName(golden: GoldenCase): ResultSchemaName {
  if (!golden.page) return `${golden.kind}Document` as ResultSchemaName;
  return golden.dialect === 'tag' ? 'VideoTagDialectPage' : (`${golden.kind}Page` as ResultSchemaName);
}

function issues(name: ResultSchemaName, mode: Preset | 'any', value: unknown): string {
  const result = namedSchemaFor(name, mode).safeParse(value);
  return result.success ? '' : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
}

for (const golden of GOLDEN_CASES) {
  test(`golden ${golden.name} matches ${schemaName(golden)} in every preset, and the any-preset schema`, () => {
    const output = JSON.parse(JSON.stringify(golden.build()));
    for (const preset of PRESETS) {
      const answer = project(output, preset);
      assert.equal(issues(schemaName(golden), preset, answer), '', preset);
      assert.equal(issues(schemaName(golden), 'any', answer), '', `any (${preset})`);
    }
  });
}

const userVideos = () => JSON.parse(JSON.stringify(GOLDEN_CASES.find((c) => c.name === 'user-videos')!.build()));

test('a malformed answer is refused: count as string, misspelt member, missing array, dropped member present', () => {
  const page = userVideos();
  page.orderedItems[0].likeCount = String(page.orderedItems[0].likeCount);
  assert.match(issues('VideoPage', 'full', page), /orderedItems\.0\.likeCount/);

  const misspelt = userVideos();
  misspelt.orderedItems[0].likeCuont = 1;
  assert.match(issues('VideoPage', 'any', misspelt), /likeCuont/);

  const noTags = userVideos();
  delete noTags.orderedItems[0].tag;
  assert.match(issues('VideoPage', 'minimal', project(noTags, 'minimal')), /orderedItems\.0\.tag/);

  const minimal = project(userVideos(), 'minimal') as { orderedItems: Array<Record<string, unknown>> };
  minimal.orderedItems[0].url = 'https://www.tiktok.com/@x/video/1';
  assert.match(issues('VideoPage', 'minimal', minimal), /url/);

  const noContext = userVideos();
  noContext['@context'] = ['https://example.com/other', 'https://reelay.test/ns/social'];
  assert.match(issues('VideoPage', 'full', noContext), /@context/);
});

test('in the any-preset schema, members some preset drops are optional and say which preset drops them', () => {
  const json = toJsonSchemas('any', (id) => `#/components/schemas/${id}`);
  const video = json.Video as { required: string[]; properties: Record<string, { description?: string }> };
  assert.ok(video.required.includes('tag') && video.required.includes('internalId'));
  // minimal names a video by internalId, the id the tools take: its web page (`id`) is dropped.
  assert.ok(!video.required.includes('attachment') && !video.required.includes('url') && !video.required.includes('id'));
  assert.match(video.properties.attachment.description ?? '', /Absent with projection_preset=minimal\./);
  assert.match(video.properties.preview.description ?? '', /standard or minimal/);
  // An Image only ever appears where every preset that keeps it keeps its url.
  assert.deepEqual((json.Image as { required: string[] }).required, ['type', 'url']);
  for (const [name, schema] of Object.entries(json)) {
    assert.equal((schema as { type: string }).type, 'object', name);
    assert.ok(Object.keys((schema as { properties: object }).properties).length > 0, name);
  }
  assert.deepEqual(Object.keys(json).sort(), Object.keys(NAMED_SCHEMAS).sort());
});

test('counts are JSON Schema integers and ids are strings', () => {
  const json = toJsonSchemas('any', (id) => `#/components/schemas/${id}`);
  const video = json.Video as { properties: Record<string, { type?: string }> };
  for (const name of ['viewCount', 'likeCount', 'commentCount', 'repostCount', 'shareCount', 'saveCount', 'duration']) {
    assert.equal(video.properties[name].type, 'integer', name);
  }
  assert.equal(video.properties.internalId.type, 'string');
  assert.equal((json.VideoPage as { properties: Record<string, { type?: string }> }).properties.totalItems.type, 'integer');
});
