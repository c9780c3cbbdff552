// The consent page: the user proves they hold an account (an API key of it), sees which client
// asks and where it will send them, and approves or denies. No script; all values HTML-escaped.

export type ConsentView = {
  serviceName: string;
  clientName: string;
  redirectHost: string;
  loopbackRedirect: boolean;
  scope: string;
  /** Hidden fields that carry the authorization request through the POST, re-validated there. */
  hidden: Record<string, string>;
  csrfToken: string;
  /** A sign-in session cookie from a one-time link is present: the key field becomes optional. */
  signedIn?: boolean;
  error?: string;
};

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Frames are refused (clickjacking); no script runs; the page itself is never cached. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}.box{border:1px solid #ccc;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
.host{font-family:ui-monospace,monospace;font-weight:600}.warn{color:#8a5300}.err{color:#b00020;font-weight:600}
label{display:block;margin:.75rem 0 .25rem}input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
.actions{display:flex;gap:.75rem;margin-top:1rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:6px;border:1px solid #888;cursor:pointer}
button.primary{background:#1a56db;color:#fff;border-color:#1a56db}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function renderConsentPage(view: ConsentView): string {
  const hidden = Object.entries(view.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const loopback = view.loopbackRedirect
    ? '<p class="warn">This address is on your own computer: approve only if you just started this app yourself.</p>'
    : '';
  const error = view.error ? `<p class="err" role="alert">${escapeHtml(view.error)}</p>` : '';
  return layout(
    `Authorize ${view.clientName}`,
    `<h1>Allow <span id="client-name">${escapeHtml(view.clientName)}</span> to use ${escapeHtml(view.serviceName)}?</h1>
<div class="box"><p>It will get <strong>read-only</strong> access (scope <code>${escapeHtml(view.scope)}</code>) to public platform data through your account, with a new API key you can revoke at any time.</p>
<p>After you decide, you will be sent to <span class="host" id="redirect-host">${escapeHtml(view.redirectHost)}</span>.</p>${loopback}</div>
${error}<form method="post" action="authorize">${hidden}<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
${view.signedIn ? '<p id="signed-in">Signed in with a one-time link: approve, or paste a key to use another account.</p>' : ''}<label for="api_key">Sign in with an API key of your account</label>
<input type="password" id="api_key" name="api_key" autocomplete="off" spellcheck="false" placeholder="rly_…">
<div class="actions"><button class="primary" type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button></div></form>`,
  );
}

export function renderErrorPage(serviceName: string, title: string, message: string): string {
  return layout(
    `${serviceName}: ${title}`,
    `<h1>${escapeHtml(title)}</h1><p class="err" role="alert">${escapeHtml(message)}</p><p>Return to the application and try connecting again.</p>`,
  );
}

/** The button page of a one-time sign-in link (the token is already HTML-escaped by the caller). */
export function renderSignInPage(serviceName: string, escapedToken: string, csrfToken: string): string {
  return layout(
    `${serviceName}: sign in`,
    `<h1>Sign in to ${escapeHtml(serviceName)}</h1><p>This one-time link signs this browser in for the next authorization you approve.</p>
<form method="post" action="signin"><input type="hidden" name="token" value="${escapedToken}"><input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<div class="actions"><button class="primary" type="submit" id="sign-in">Sign in</button></div></form>`,
  );
}

export function renderSignedInPage(serviceName: string): string {
  return layout(
    `${serviceName}: signed in`,
    `<h1>Signed in</h1><p>Return to the authorization page and press <strong>Approve</strong> (reload it first if it was already open).</p>`,
  );
}
