// Plays the user on the consent page over plain HTTP: loads it, keeps the CSRF cookie, submits the
// form with an API key and a decision, and returns where the server redirects the browser.

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (value: string) => value.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m]);

export type ConsentPage = { status: number; html: string; fields: Record<string, string>; cookie: string | undefined; headers: Headers };

export async function loadConsent(authorizationUrl: string | URL): Promise<ConsentPage> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await res.text();
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[unescape(match[1])] = unescape(match[2]);
  const setCookie = res.headers.get('set-cookie') ?? undefined;
  return { status: res.status, html, fields, cookie: setCookie?.split(';')[0], headers: res.headers };
}

export async function submitConsent(
  origin: string,
  page: ConsentPage,
  form: { api_key?: string; decision: 'approve' | 'deny'; csrf_token?: string },
  /** null sends no cookie at all. */
  cookie: string | null = page.cookie ?? null,
): Promise<{ status: number; location: string | null; html: string }> {
  const body = new URLSearchParams({ ...page.fields, ...form } as Record<string, string>);
  const res = await fetch(`${origin}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), origin },
    body,
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** The whole consent step: approve with `apiKey`, return the redirect URL carrying code, state and iss. */
export async function approve(authorizationUrl: string | URL, apiKey: string): Promise<URL> {
  const page = await loadConsent(authorizationUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.html.slice(0, 300)}`);
  const origin = new URL(authorizationUrl).origin;
  const result = await submitConsent(origin, page, { api_key: apiKey, decision: 'approve' });
  if (result.status !== 303 || !result.location) throw new Error(`approval answered ${result.status}: ${result.html.slice(0, 300)}`);
  return new URL(result.location);
}
