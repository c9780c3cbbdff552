// Extraction of the hydration JSON embedded in profile and video pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractRehydration, extractScope } from './rehydration.ts';

const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/platform/${name}`, import.meta.url), 'utf8');

function pageWith(scopes: Record<string, unknown>): string {
  const json = JSON.stringify({ __DEFAULT_SCOPE__: scopes });
  return `<!DOCTYPE html><html><head><script id="SIGI_RETRY" type="application/json">{}</script></head><body>
<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${json}</script></body></html>`;
}

test('the user-detail scope of a real profile page payload is extracted unchanged', () => {
  const scope = JSON.parse(fixture('rehydration_webapp_user_detail__gocomment_2025-03.json'));
  const html = pageWith({ 'webapp.app-context': { wid: '1' }, 'webapp.user-detail': scope });
  assert.deepEqual(extractScope(html, 'webapp.user-detail'), scope);
  assert.equal(extractScope(html, 'webapp.video-detail'), undefined);
});

test('pages without the rehydration script (2020 __NEXT_DATA__ pages) yield nothing', () => {
  for (const name of ['legacy_html_user_page_next_data__drawrowfly_2020.html', 'legacy_html_video_page_next_data__drawrowfly_2020.html']) {
    const html = fixture(name);
    assert.equal(extractRehydration(html), undefined, name);
    assert.equal(extractScope(html, 'webapp.user-detail'), undefined, name);
  }
});

test('a broken rehydration script yields nothing instead of throwing', () => {
  const html = '<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">{"__DEFAULT_SCOPE__":</script>';
  assert.equal(extractRehydration(html), undefined);
});
