// "Nothing half-written": checks over the stored rows that hold on SQLite and PostgreSQL alike.
// `broken` must stay empty; `counts` report every check. A grant is one transaction, so a crash leaves
// it whole or absent: a spent code or an OAuth key always comes with what it issued.
export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

const BROKEN: Array<[string, string]> = [
  ['keys without their account', 'SELECT count(*) AS n FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE a.id IS NULL'],
  ['malformed key rows', "SELECT count(*) AS n FROM api_keys WHERE length(hash) <> 64 OR length(prefix) <> 12 OR prefix NOT LIKE 'rly%' OR name = ''"],
  ['OAuth keys of an unknown client', 'SELECT count(*) AS n FROM api_keys k LEFT JOIN oauth_clients c ON c.client_id = k.oauth_client_id WHERE k.oauth_client_id IS NOT NULL AND c.client_id IS NULL'],
  ['refresh tokens pointing at a missing key', 'SELECT count(*) AS n FROM oauth_refresh_tokens r LEFT JOIN api_keys k ON k.id = r.key_id WHERE r.key_id IS NOT NULL AND k.id IS NULL'],
  ['codes marked issued to a missing key', 'SELECT count(*) AS n FROM oauth_auth_codes c LEFT JOIN api_keys k ON k.id = c.issued_key_id WHERE c.issued_key_id IS NOT NULL AND k.id IS NULL'],
  ['codes marked issued to a missing refresh token', 'SELECT count(*) AS n FROM oauth_auth_codes c LEFT JOIN oauth_refresh_tokens r ON r.token_hash = c.issued_refresh_hash WHERE c.issued_refresh_hash IS NOT NULL AND r.token_hash IS NULL'],
  // Refused presentations also spend a code; the crash test sends none, so here every used code issued.
  // Sign-in links share the table under reserved `reelay:` client ids and never issue.
  ['codes redeemed but nothing issued', "SELECT count(*) AS n FROM oauth_auth_codes WHERE used_at IS NOT NULL AND issued_key_id IS NULL AND client_id NOT LIKE 'reelay:%'"],
  ['OAuth keys without a refresh token', 'SELECT count(*) AS n FROM api_keys k LEFT JOIN oauth_refresh_tokens r ON r.key_id = k.id WHERE k.oauth_client_id IS NOT NULL AND r.token_hash IS NULL'],
];

const REPORTED: Array<[string, string]> = [
  ['keys stored', 'SELECT count(*) AS n FROM api_keys'],
  ['authorization codes stored', 'SELECT count(*) AS n FROM oauth_auth_codes'],
];

export async function integrityFindings(query: Query, sqlite: boolean): Promise<{ broken: string[]; counts: Record<string, number> }> {
  const broken: string[] = [];
  const counts: Record<string, number> = {};
  if (sqlite) {
    const rows = await query('PRAGMA integrity_check');
    const verdict = rows.map((r) => Object.values(r)[0]).join('; ');
    if (verdict !== 'ok') broken.push(`integrity_check: ${verdict}`);
  }
  for (const [name, sql] of BROKEN) {
    const n = Number((await query(sql))[0]?.n ?? 0);
    counts[name] = n;
    if (n > 0) broken.push(`${name}: ${n}`);
  }
  for (const [name, sql] of REPORTED) counts[name] = Number((await query(sql))[0]?.n ?? 0);
  return { broken, counts };
}
