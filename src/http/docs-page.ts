// The human API reference at /docs: one self-contained HTML page (no scripts, no external assets)
// generated from the registry, so it works offline and never drifts from the routes.
import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';
import type { Config } from '../config/config.ts';
import type { Operation } from '../operations/types.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function describeSchema(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const parts: string[] = [];
  if (Array.isArray(json.enum)) parts.push(`one of ${(json.enum as string[]).join(', ')}`);
  else if (json.type) parts.push(String(json.type));
  if (json.default !== undefined) parts.push(`default ${JSON.stringify(json.default)}`);
  return parts.join('; ');
}

function operationSection(op: Operation, config: Config): string {
  const shape = op.input.shape as Record<string, z.ZodType>;
  const rows = Object.entries(shape)
    .map(([name, schema]) => {
      const where = op.pathParams.includes(name) ? 'path' : 'query';
      const description = schema.description ?? '';
      return `<tr><td><code>${name}</code></td><td>${where}</td><td>${escapeHtml(describeSchema(schema))}</td><td>${escapeHtml(description)}</td></tr>`;
    })
    .join('');
  const path = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
  const aliases = (op.aliases ?? []).map((a) => ` (also <code>${escapeHtml(a.replace(/:([A-Za-z]+)/g, '{$1}'))}</code>)`).join('');
  return `<section id="op-${op.name}"><h3>${escapeHtml(op.title)}</h3>
<p><code>GET ${escapeHtml(path)}</code>${aliases} · MCP tool <code>${op.tool}</code></p>
<p>${escapeHtml(op.description)}</p>
<table><tr><th>Parameter</th><th>In</th><th>Type</th><th>Meaning</th></tr>${rows}</table>
<pre>curl -H "Authorization: Bearer $KEY" '${escapeHtml(config.publicUrl + path)}'</pre></section>`;
}

export function renderDocsPage(operations: readonly Operation[], config: Config): string {
  const errors = Object.entries(ERROR_CODES)
    .map(([code, entry]) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${entry.status}</td><td>${escapeHtml(entry.title)}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reelay API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f4f4f4;padding:.6rem;overflow:auto}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #eee;margin-top:1.5rem}</style></head><body>
<h1>reelay API reference</h1>
<p>Read-only public data of a short-video platform as ActivityStreams JSON. Every request sends
<code>Authorization: Bearer &lt;API key&gt;</code>; every success is <code>{"data": ...}</code>; every error is an
RFC 9457 <code>application/problem+json</code> document with a stable <code>code</code>.
Collections page with <code>cursor</code> (start at <code>0</code>, then send <code>nextCursor</code>, or follow <code>next</code>)
and <code>count</code>. Machine-readable: <a href="/openapi.json">/openapi.json</a>. MCP tool server: <code>${escapeHtml(config.mcpPublicUrl)}</code>.</p>
<h2>Operations</h2>${operations.map((op) => operationSection(op, config)).join('\n')}
<h2 id="errors">Error codes</h2><table><tr><th>Code</th><th>HTTP</th><th>Title</th></tr>${errors}</table>
</body></html>`;
}
