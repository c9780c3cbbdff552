// HTTP behaviour around the operations: conditional requests, cache headers, unknown routes and
// methods, OpenAPI validity, docs, health, metrics, the JSON-LD context and secret-free logs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { operationErrorCodes } from '../../src/http/openapi.ts';
import { useStack } from '../helpers/stack.ts';

const ctx = useStack();

describe('caching headers', () => {
  it('answers carry ETag, Cache-Control, Age and Cache-Status, and If-None-Match gets 304', async () => {
    const path = `/v1/platform/videos/${ctx.m.videos.withReplies.id}`;
    const first = await ctx.stack.get(path);
    assert.equal(first.status, 200);
    assert.match(String(first.headers['etag']), /^"[^"]+"$/);
    assert.match(String(first.headers['cache-control']), /max-age=\d+/);
    assert.match(String(first.headers['cache-status']), /^reelay; fwd=uri-miss/);
    const second = await ctx.stack.get(path);
    assert.match(String(second.headers['cache-status']), /^reelay; hit/);
    assert.equal(second.headers['etag'], first.headers['etag']);
    assert.equal(second.body, first.body, 'a hit serves the same bytes');
    const conditional = await ctx.stack.get(path, { 'if-none-match': String(first.headers['etag']) });
    assert.equal(conditional.status, 304);
    assert.equal(conditional.body, '');
  });

  it('Server-Timing says how long reelay and, on a miss, the platform took', async () => {
    // A user no other test of this file asks about, so nothing of it is cached yet.
    const path = `/v1/platform/users/${ctx.m.users.withPlaylists}/videos?count=3`;
    const miss = await ctx.stack.get(path);
    assert.match(String(miss.headers['cache-status']), /fwd=uri-miss/);
    // A user's videos: the profile (to resolve the user), then the first posts page.
    assert.match(String(miss.headers['server-timing']), /^app;dur=\d+\.\d, platform;dur=\d+\.\d;desc="2 requests"$/);
    const hit = await ctx.stack.get(path);
    assert.match(String(hit.headers['server-timing']), /^app;dur=\d+\.\d$/, 'a hit asked the platform nothing');
    const video = await ctx.stack.get(`/v1/platform/videos/${ctx.m.videos.withReplies.id}?projection_preset=minimal`);
    assert.match(String(video.headers['server-timing']), /^app;dur=\d+\.\d(, platform;dur=\d+\.\d;desc="1 request")?$/);
  });

  it('projection presets shrink the answer and carry their own ETag', async () => {
    const path = `/v1/platform/users/${ctx.m.users.public}/videos?count=5`;
    const full = await ctx.stack.get(path);
    const minimal = await ctx.stack.get(`${path}&projection_preset=minimal`);
    assert.equal(minimal.status, 200);
    assert.ok(minimal.body.length < full.body.length / 2, `minimal ${minimal.body.length} vs full ${full.body.length}`);
    assert.notEqual(minimal.headers['etag'], full.headers['etag']);
  });
});

describe('routes outside the registry', () => {
  it('unknown paths are 404 problem+json and wrong methods are 405 with Allow', async () => {
    const unknown = await ctx.stack.get('/v1/platform/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'not_found');
    const post = await ctx.stack.app.rest.inject({ method: 'POST', url: `/v1/platform/users/${ctx.m.users.public}`, headers: { authorization: `Bearer ${ctx.stack.key}` } });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers['allow'], 'GET, HEAD');
    assert.equal(JSON.parse(post.body).code, 'method_not_allowed');
  });

  it('a request id is returned, and an incoming one is kept', async () => {
    const res = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}`, { 'x-request-id': 'trace-12345678' });
    assert.equal(res.headers['x-request-id'], 'trace-12345678');
  });

  it('health, readiness and metrics answer', async () => {
    assert.equal((await ctx.stack.app.rest.inject('/healthz')).statusCode, 200);
    assert.equal((await ctx.stack.app.rest.inject('/readyz')).statusCode, 200);
    await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}`);
    const metrics = await ctx.stack.app.rest.inject('/metrics');
    assert.match(metrics.body, /reelay_http_requests_total/);
    assert.match(metrics.body, /reelay_upstream_requests_total\{endpoint="[^"]+",outcome="ok"\}/);
    assert.match(metrics.body, /reelay_cache_events_total/);
  });
});

describe('documents', () => {
  it('the OpenAPI document is valid OpenAPI 3.1 and lists every operation', async () => {
    const res = await ctx.stack.app.rest.inject('/openapi.json');
    const doc = JSON.parse(res.body);
    assert.equal(doc.openapi, '3.1.0');
    await SwaggerParser.validate(structuredClone(doc));
    const ids = Object.values(doc.paths).map((p: any) => p.get?.operationId);
    for (const name of ['tagVideos', 'userVideos', 'userReposts', 'userLikes', 'userCollections', 'userFollowers', 'live', 'video', 'comments', 'replies', 'transcript', 'user']) {
      assert.ok(ids.includes(name), name);
    }
  });

  it('every 200 refs a component with properties, whose data refs the answer schema; counts are integers', async () => {
    const doc = JSON.parse((await ctx.stack.app.rest.inject('/openapi.json')).body);
    const component = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const op = OPERATIONS.find((o) => o.name === item.get?.operationId.replace(/Alias\d+$/, ''));
      if (!op) {
        // The media and watch routes: every JSON 2xx refs an envelope component whose data refs a
        // component with properties (or is an array of one); files, CSV and charts are bytes or text.
        for (const [method, spec] of Object.entries<any>(item)) {
          for (const [status, response] of Object.entries<any>(spec.responses)) {
            const json = response.content?.['application/json'];
            if (!status.startsWith('2') || !json) continue;
            const linked = component(json.schema.$ref);
            assert.deepEqual(linked.required, ['data'], `${method} ${path}`);
            const data = linked.properties.data;
            const answers = data.$ref ? [data] : data.items ? [data.items] : data.anyOf;
            for (const answer of answers) assert.ok(Object.keys(component(answer.$ref).properties).length >= 3, `${method} ${path}`);
          }
        }
        continue;
      }
      const ref = item.get.responses['200'].content['application/json'].schema.$ref;
      assert.equal(ref, `#/components/schemas/${op.output}Response`, path);
      assert.deepEqual(component(ref).required, ['data'], path);
      const data = component(component(ref).properties.data.$ref);
      assert.ok(Object.keys(data.properties).length > 3, `${path}: ${op.output} has properties`);
      for (const param of item.get.parameters.filter((p: any) => p.name === 'count')) {
        assert.equal(param.schema.type, 'integer', path);
        assert.equal(param.schema.anyOf, undefined, path);
      }
      // Every code the operation can answer, under its own status, as a Problem.
      for (const code of operationErrorCodes(op)) {
        const response = item.get.responses[String(ERROR_CODES[code].status)];
        const schema = response?.content['application/problem+json'].schema;
        assert.equal(schema?.allOf[0].$ref, '#/components/schemas/Problem', `${path} ${code}`);
        assert.ok(schema.allOf[1].properties.code.enum.includes(code), `${path} ${code}`);
      }
    }
    const problem = doc.components.schemas.Problem;
    for (const member of ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId']) assert.ok(problem.required.includes(member), member);
    for (const member of ['params', 'languages', 'retryAfterSeconds', 'deadlineMs']) assert.ok(problem.properties[member], member);
    assert.deepEqual(problem.properties.code.enum, Object.keys(ERROR_CODES));
    const video = doc.components.schemas.Video;
    assert.equal(video.properties.likeCount.type, 'integer');
    assert.equal(video.properties.internalId.type, 'string');
  });

  it('the eight watch calls are in the document under watches, with bodies, answers and problems; Watch never shows the secret', async () => {
    const doc = JSON.parse((await ctx.stack.app.rest.inject('/openapi.json')).body);
    const calls = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).filter(([, spec]) => spec.tags?.includes('watches')).map(([method, spec]) => [`${method.toUpperCase()} ${path}`, spec] as const),
    );
    assert.deepEqual(calls.map(([call]) => call).sort(), [
      'DELETE /v1/watches/{id}', 'GET /v1/watches', 'GET /v1/watches/{id}', 'GET /v1/watches/{id}/deliveries', 'GET /v1/watches/{id}/history',
      'PATCH /v1/watches/{id}', 'POST /v1/watches', 'POST /v1/watches/{id}/deliveries/{deliveryId}/redeliver',
    ]);
    for (const [call, spec] of calls) {
      assert.deepEqual(spec.security, [{ bearer: [] }], call);
      assert.ok(Object.keys(spec.responses).some((status) => /^2\d\d$/.test(status)), call);
      assert.deepEqual(spec.responses['401'].content['application/problem+json'].schema.allOf[1].properties.code.enum, ['unauthorized'], call);
      if (call.includes('{id}')) assert.ok(spec.responses['404'].content['application/problem+json'].schema.allOf[1].properties.code.enum.includes('not_found'), call);
    }
    const paths = doc.paths;
    assert.equal(paths['/v1/watches'].post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/WatchCreateBody');
    assert.equal(paths['/v1/watches'].post.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/WatchWithSecretResponse');
    assert.equal(paths['/v1/watches/{id}'].patch.requestBody.content['application/json'].schema.$ref, '#/components/schemas/WatchUpdateBody');
    assert.ok(paths['/v1/watches/{id}'].delete.responses['204']);
    assert.equal(paths['/v1/watches/{id}/deliveries/{deliveryId}/redeliver'].post.responses['202'].content['application/json'].schema.$ref, '#/components/schemas/DeliveryResponse');
    assert.deepEqual(Object.keys(paths['/v1/watches/{id}/history'].get.responses['200'].content), ['application/json', 'text/csv', 'image/svg+xml']);
    assert.ok(paths['/v1/watches/{id}/history'].get.responses['406']);
    const { Watch, WatchWithSecret, WatchCreateBody } = doc.components.schemas;
    const webhookOf = (schema: any) => schema.properties.webhook.anyOf.find((branch: any) => branch.type === 'object');
    assert.deepEqual(Object.keys(webhookOf(Watch).properties), ['url']);
    assert.deepEqual(webhookOf(WatchWithSecret).required, ['url', 'secret']);
    assert.deepEqual(WatchCreateBody.required, ['kind', 'target', 'every']);
    assert.equal(Watch.properties.failures.type, 'integer');
  });

  it('/docs loads Swagger UI and /openapi.json from reelay itself, under a strict Content-Security-Policy', async () => {
    const res = await ctx.stack.app.rest.inject('/docs');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.doesNotMatch(res.body, /https?:\/\//, 'every asset URL is on the page\'s own origin');
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(sources.length >= 4, sources.join());
    for (const source of sources) {
      const asset = await ctx.stack.app.rest.inject(source);
      assert.equal(asset.statusCode, 200, source);
    }
    const init = await ctx.stack.app.rest.inject('/docs/init.js');
    assert.match(init.body, /"url":"\/openapi\.json"/);
    assert.match(init.body, /"validatorUrl":null/);
  });

  it('/docs serves only its listed assets, of the installed version', async () => {
    const page = await ctx.stack.app.rest.inject('/docs');
    const bundle = /src="(\/docs\/assets\/([^/]+)\/swagger-ui-bundle\.js)"/.exec(page.body);
    assert.ok(bundle, 'the page loads the bundle');
    const ok = await ctx.stack.app.rest.inject(bundle[1]);
    assert.match(String(ok.headers['content-type']), /^text\/javascript/);
    assert.match(String(ok.headers['cache-control']), /immutable/);
    for (const path of [`/docs/assets/${bundle[2]}/index.html`, `/docs/assets/${bundle[2]}/package.json`, `/docs/assets/${bundle[2]}/..%2Fpackage.json`, '/docs/assets/0.0.0/swagger-ui-bundle.js']) {
      const res = await ctx.stack.app.rest.inject(path);
      assert.equal(res.statusCode, 404, path);
      assert.equal(JSON.parse(res.body).code, 'not_found', path);
    }
  });

  it('the OpenAPI document types count as the integer it is, with its default', async () => {
    const doc = JSON.parse((await ctx.stack.app.rest.inject('/openapi.json')).body);
    const count = doc.paths['/v1/platform/users/{username}/videos'].get.parameters.find((p: { name: string }) => p.name === 'count');
    assert.deepEqual({ ...count.schema, description: undefined }, { description: undefined, type: 'integer', minimum: 1, maximum: 35, default: 35 });
  });

  it('the social namespace URL serves a JSON-LD context', async () => {
    const res = await ctx.stack.app.rest.inject('/ns/social');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/ld\+json/);
    assert.ok(JSON.parse(res.body)['@context']);
  });
});

describe('secrets', () => {
  it('no API key, cookie or token value appears in the logs', async () => {
    await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}`);
    await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}/videos?count=2`);
    await ctx.stack.app.rest.inject({ method: 'GET', url: '/v1/platform/users/x', headers: { authorization: 'Bearer rly_forgedforgedforgedforged' } });
    const logs = ctx.stack.logs.join('');
    assert.ok(logs.length > 0, 'requests were logged');
    assert.ok(!logs.includes(ctx.stack.key), 'the API key is not logged');
    assert.ok(!logs.includes('rly_forgedforgedforgedforged'), 'a rejected key is not logged');
    assert.doesNotMatch(logs, /tt_chain_token=|msToken=|ttwid=/);
  });
});
