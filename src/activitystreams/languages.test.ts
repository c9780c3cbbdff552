// The spec's transcript languages and their platform subtitle codes, one test per language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TRANSCRIPT_LANGUAGES, fromPlatformLanguage, toPlatformLanguage } from './languages.ts';

/** LanguageCodeName values seen in recorded samples (PLATFORM.md §2.12). */
const SEEN = new Set(
  ('alb-AL ara-SA aze-AZ ben-BD bul-BG cat-ES ceb-PH ces-CZ cmn-Hans-CN cmn-Hant-CN dan-DK deu-DE ell-GR eng-US ' +
    'est-EE fin-FI fra-FR gle-IE heb-IL hrv-HR hun-HU ind-ID isl-IS ita-IT jav-ID jpn-JP khm-KH kor-KR lav-LV lit-LT ' +
    'nld-NL nob-NO pol-PL por-PT ron-RO rus-RU slk-SK slv-SI spa-ES swa-SW swe-SE tha-TH tur-TR ukr-UA urd-PK uzb-UZ vie-VN').split(' '),
);
const UNSEEN = new Set(['fil-PH', 'ms-MY']);

test('the transcript languages are exactly the 35 codes of the spec, in order', () => {
  assert.equal(TRANSCRIPT_LANGUAGES.length, 35);
  assert.equal(TRANSCRIPT_LANGUAGES.join(' '),
    'ar-SA az-AZ ca-ES ceb-PH cs-CZ da-DK de-DE en-US es-ES et-EE fi-FI fil-PH fr-FR ga-IE he-IL hr-HR id-ID it-IT ' +
    'ja-JP ko-KR lv-LV lt-LT ms-MY nb-NO nl-NL pl-PL pt-PT ru-RU sw-SW sv-SE th-TH uk-UA vi-VN zh-Hans-CN zh-Hant-CN');
});

for (const language of TRANSCRIPT_LANGUAGES) {
  test(`${language} maps to a platform code seen in samples and back`, () => {
    const code = toPlatformLanguage(language);
    assert.match(code, /^[a-z]{3}(-[A-Z][a-z]{3})?-[A-Z]{2}$/);
    assert.ok(SEEN.has(code) || UNSEEN.has(language), `${code} was not seen in samples`);
    assert.equal(code.slice(code.lastIndexOf('-')), language.slice(language.lastIndexOf('-')), 'same region');
    assert.equal(fromPlatformLanguage(code), language);
  });
}

test('platform codes outside the spec list map to nothing, and case does not matter', () => {
  assert.equal(fromPlatformLanguage('urd-PK'), undefined);
  assert.equal(fromPlatformLanguage('ENG-us'), 'en-US');
  assert.equal(toPlatformLanguage('zh-Hans-CN'), 'cmn-Hans-CN');
});