// The interactive API reference at /docs: Swagger UI rendering /openapi.json, with "Try it out"
// authorized by the reader's API key. Every asset comes from reelay's own origin (no CDN), so the
// page works offline and its Content-Security-Policy allows scripts from 'self' only.
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import type { Config } from '../config/config.ts';

/** The only files served out of swagger-ui-dist (its index.html and initializer point at a demo API). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export type DocsAssets = { dir: string; version: string };

/** Where swagger-ui-dist is installed, and its version (which names the asset URLs). */
export function locateDocsAssets(): DocsAssets {
  const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { dir: dirname(manifest), version };
}

/** The path part of the public URL, so the page also works when reelay is served under a prefix. */
function basePath(publicUrl: string): string {
  return new URL(publicUrl).pathname.replace(/\/+$/, '');
}

/**
 * Swagger UI's settings. The key typed into "Authorize" stays in the page's memory (no
 * persistAuthorization, so never in localStorage); the validator badge would call
 * validator.swagger.io and is off; URL query parameters cannot reconfigure the page.
 */
export function docsInitScript(config: Pick<Config, 'publicUrl'>): string {
  const settings = {
    url: `${basePath(config.publicUrl)}/openapi.json`,
    dom_id: '#swagger-ui',
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: false,
    displayRequestDuration: true,
    requestSnippetsEnabled: true,
    filter: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    supportedSubmitMethods: ['get'],
    layout: 'BaseLayout',
  };
  return `'use strict';
window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(settings)}, { presets: [SwaggerUIBundle.presets.apis] }));
`;
}

export function renderDocsPage(config: Pick<Config, 'publicUrl'>, assets: DocsAssets): string {
  const base = basePath(config.publicUrl);
  const asset = (file: string) => `${base}/docs/assets/${assets.version}/${file}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reelay API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${asset('index.css')}"><link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}"></head><body>
<noscript><p>This interactive reference needs JavaScript. The same reference as OpenAPI 3.1: <a href="${base}/openapi.json">/openapi.json</a>.</p></noscript>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script><script src="${base}/docs/init.js"></script>
</body></html>`;
}

/**
 * The page's policy: scripts, styles, fonts and images from reelay only (images also as data: URIs,
 * which Swagger UI's stylesheet uses for its icons); requests to reelay's own API only. No inline
 * script or style: Swagger UI sets styles through the DOM, which the policy does not restrict.
 */
export function docsContentSecurityPolicy(config: Pick<Config, 'publicUrl'>): string {
  const api = new URL(config.publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** GET /docs, its initializer and its versioned, immutable assets. */
export function registerDocsRoutes(app: FastifyInstance, config: Config, assets: DocsAssets = locateDocsAssets()): void {
  const page = renderDocsPage(config, assets);
  const init = docsInitScript(config);
  const policy = docsContentSecurityPolicy(config);
  app.get('/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', policy).header('cache-control', 'no-cache').send(page),
  );
  app.get('/docs/init.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(init));
  app.get<{ Params: { version: string; file: string } }>('/docs/assets/:version/:file', async (request, reply) => {
    const { version, file } = request.params;
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (type === undefined || version !== assets.version) throw new AppError('not_found', `No documentation asset ${request.url.split('?')[0]}.`);
    // The version in the URL changes with every swagger-ui-dist upgrade, so a copy never goes stale.
    return reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(createReadStream(join(assets.dir, file)));
  });
}
