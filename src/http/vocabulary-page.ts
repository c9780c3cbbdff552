// The description of reelay's vocabulary at /ns/vocab: RDFS in JSON-LD for programs, an HTML table
// for people (chosen by Accept), both built from the one term list the JSON-LD context uses.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { REELAY_CLASSES, REELAY_TERMS, REELAY_VOCAB, termIri, vocabularyDocument } from '../activitystreams/index.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const STYLE = 'body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{font-size:13px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const VALUE_LABEL = { 'xsd:integer': 'integer (xsd:integer)', 'xsd:boolean': 'boolean (xsd:boolean)', '@id': 'object (node)', '@json': 'JSON object (rdf:JSON)', string: 'string' } as const;

export function renderVocabularyPage(): string {
  const rows = Object.entries(REELAY_TERMS)
    .map(([key, term]) => `<tr id="${key}"><td><code>${key}</code></td><td><code>${escapeHtml(termIri(key))}</code></td><td>${VALUE_LABEL[term.value]}</td><td>${escapeHtml(term.comment)}</td></tr>`)
    .join('\n');
  const classes = Object.entries(REELAY_CLASSES)
    .map(([name, comment]) => `<tr id="${name}"><td><code>${name}</code></td><td><code>${escapeHtml(REELAY_VOCAB + name)}</code></td><td>${escapeHtml(comment)}</td></tr>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reelay vocabulary</title><style>${STYLE}</style></head><body>
<h1>reelay vocabulary</h1>
<p>Terms reelay emits beyond ActivityStreams 2.0. Their IRIs are in the fixed namespace <code>${REELAY_VOCAB}</code>,
the same for every deployment; each deployment serves its JSON-LD context at <code>/ns/social</code> and this
description at <code>/ns/vocab</code> (as JSON-LD with <code>Accept: application/ld+json</code>).</p>
<h2>Classes</h2><table><tr><th>Type</th><th>IRI</th><th>Meaning</th></tr>${classes}</table>
<h2>Properties</h2><table><tr><th>JSON key</th><th>IRI</th><th>Value</th><th>Meaning</th></tr>
${rows}</table></body></html>`;
}

/** HTML only for a client that asks for it and not for JSON: programs get JSON-LD by default. */
function wantsHtml(accept: string | undefined): boolean {
  return /(^|,)\s*text\/html/i.test(accept ?? '') && !/(^|,)\s*application\/(ld\+json|json)/i.test(accept ?? '');
}

export function registerVocabularyRoute(app: FastifyInstance): void {
  const json = JSON.stringify(vocabularyDocument());
  const html = renderVocabularyPage();
  app.get('/ns/vocab', async (request, reply) => {
    reply.header('vary', 'Accept').header('cache-control', 'public, max-age=86400').header('access-control-allow-origin', '*');
    if (!wantsHtml(request.headers.accept)) return reply.type('application/ld+json').send(json);
    return reply.type('text/html; charset=utf-8').header('content-security-policy', `default-src 'none'; style-src ${STYLE_HASH}`).send(html);
  });
}
