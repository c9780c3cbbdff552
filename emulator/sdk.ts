// The platform's web SDK, played by the emulator's start page: a script that wraps the page's
// `fetch` and `XMLHttpRequest` so every same-origin API call carries msToken, `X-Bogus=1` and an
// X-Gnarly it computes in the page, and that sets a cookie only a page running it can have
// (`sdk_env`), as the real SDK's environment checks do. The signing code is the client's own.
import { readFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The cookie the script sets; the `refuse_native` fault refuses API calls without a valid one. */
export const SDK_COOKIE = 'sdk_env';

const SELF = fileURLToPath(import.meta.url);
const SIGNING_DIR = path.join(path.dirname(SELF), '..', 'src', 'upstream', 'signing');
/** In dependency order: each module sees the exports of the ones before it (`.js` in the package's dist/). */
const MODULES = ['md5', 'x-bogus', 'x-gnarly', 'profiles'].map((name) => `${name}${path.extname(SELF)}`);
const EXPORTED = /^export\s+(?:function|const|let)\s+([A-Za-z0-9_$]+)/gm;

/**
 * The signing modules as one browser script: types stripped, imports dropped, and each module in
 * its own scope handing its exports to the next ones (their private names may clash).
 */
async function signingSource(): Promise<string> {
  const parts: string[] = [];
  for (const file of MODULES) {
    const js = stripTypeScriptTypes(await readFile(path.join(SIGNING_DIR, file), 'utf8'));
    const names = [...js.matchAll(EXPORTED)].map((m) => m[1]);
    const body = js.replace(/^import\s[^;]*;\s*$/gm, '').replace(/^export\s+/gm, '');
    parts.push(`const { ${names.join(', ')} } = (() => {\n${body}\nreturn { ${names.join(', ')} };\n})();`);
  }
  return parts.join('\n');
}

function wrapper(): string {
  return `
const cookieValue = (name) => {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(name + '='));
  return hit === undefined ? undefined : hit.slice(name.length + 1);
};
const signUrl = (input) => {
  const url = new URL(String(input), location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/api/')) return String(input);
  let query = url.search.startsWith('?') ? url.search.slice(1) : url.search;
  const msToken = cookieValue('msToken');
  if (msToken !== undefined && !/(^|&)msToken=/.test(query)) query += (query ? '&' : '') + 'msToken=' + msToken;
  const gnarly = SIGNING_PROFILES['web-2026'].xGnarly;
  const nowMs = Date.now();
  const fields = requestFields({ query, body: '', userAgent: navigator.userAgent, nowMs, envCode: gnarly.envCode, ubCode: gnarly.ubCodes[url.pathname] ?? 0, canvas: gnarly.canvas, version: gnarly.version, scmVersion: gnarly.scmVersion });
  const seal = encodeXGnarly(fields, () => crypto.getRandomValues(new Uint32Array(1))[0]);
  return url.origin + url.pathname + '?' + (query ? query + '&' : '') + 'X-Bogus=1&X-Gnarly=' + seal;
};
const pageFetch = window.fetch.bind(window);
window.fetch = (input, init) => pageFetch(input instanceof Request ? new Request(signUrl(input.url), input) : signUrl(input), init);
const xhrOpen = XMLHttpRequest.prototype.open;
XMLHttpRequest.prototype.open = function (method, url, ...rest) { return xhrOpen.call(this, method, signUrl(url), ...rest); };`;
}

export type SdkScript = { render(seal: string): string };

/** Builds the script once; each page load gets it with a fresh seal for the `sdk_env` cookie. */
export async function loadSdkScript(): Promise<SdkScript> {
  const body = `${await signingSource()}\n${wrapper()}`;
  return {
    render(seal) {
      const cookie = `document.cookie = ${JSON.stringify(`${SDK_COOKIE}=${seal}; path=/; SameSite=Lax`)};`;
      // `<` is escaped so nothing in the script can close its element early.
      return `(() => {\n${body}\n${cookie}\n})();`.replace(/<\//g, '<\\/');
    },
  };
}
