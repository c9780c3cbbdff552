// Where a webhook may be sent: never to link-local or cloud metadata addresses, to loopback and
// private ranges only when the operator allows it, and re-checked on every connection (the
// address a name resolves to when connecting, not when the watch was created: no DNS rebinding).
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';

export type AddressClass = 'public' | 'private' | 'forbidden';

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

// Link-local covers 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata); 100.100.100.200 is
// Alibaba's and fd00:ec2::254 AWS's IPv6 one. Unspecified, multicast and reserved ranges never
// name a web server.
const FORBIDDEN = blockList(
  ['0.0.0.0/8', '169.254.0.0/16', '100.100.100.200/32', '192.0.0.0/24', '224.0.0.0/4', '240.0.0.0/4'],
  ['::/128', 'fe80::/10', 'fd00:ec2::254/128', 'ff00::/8', '64:ff9b::/96'],
);
const PRIVATE = blockList(
  ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '198.18.0.0/15'],
  ['::1/128', 'fc00::/7'],
);
/** Names that resolve to metadata services inside clouds, refused before any lookup. */
const FORBIDDEN_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1] : address;
}

export function classifyAddress(address: string): AddressClass {
  const ip = unmapped(address);
  const family = isIP(ip);
  if (family === 0) return 'forbidden';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (FORBIDDEN.check(ip, type)) return 'forbidden';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

export type WebhookPolicy = { allowPrivate: boolean };

/** Why an address may not be used, or undefined when it may. */
export function refusalOf(address: string, policy: WebhookPolicy): string | undefined {
  const kind = classifyAddress(address);
  if (kind === 'forbidden') return `${address} is a link-local, metadata or reserved address`;
  if (kind === 'private' && !policy.allowPrivate) {
    return `${address} is a loopback or private address (allowed only with REELAY_WEBHOOK_ALLOW_PRIVATE=1)`;
  }
  return undefined;
}

export class RefusedAddress extends Error {
  readonly code = 'EADDRREFUSED_WEBHOOK';
}

type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** The host of a URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks a webhook URL at creation: http(s), no credentials, and every address its host resolves to
 * allowed. Returns the reason it is refused, or undefined.
 */
export async function checkWebhookUrl(text: string, policy: WebhookPolicy, resolve: Resolver = systemResolver): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http and https URLs are allowed';
  if (url.username || url.password) return 'credentials in the URL are not allowed; the signature authenticates reelay';
  if (text.length > 2048) return 'longer than 2048 characters';
  const host = bareHost(url);
  if (FORBIDDEN_NAMES.has(host.toLowerCase().replace(/\.$/, ''))) return `${host} names a cloud metadata service`;
  if (isIP(host)) return refusalOf(host, policy);
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return `${host} does not resolve`;
  }
  if (addresses.length === 0) return `${host} does not resolve`;
  for (const { address } of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) return `${host} resolves to ${refusal}`;
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/http connections that refuses forbidden addresses, so the check happens at
 * connect time on the addresses actually dialled. IP-literal hosts skip lookup: check them with
 * `refusalOf` before connecting.
 */
export function createGuardedLookup(policy: WebhookPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (FORBIDDEN_NAMES.has(hostname.toLowerCase().replace(/\.$/, ''))) {
      callback(new RefusedAddress(`${hostname} names a cloud metadata service`), '', 0);
      return;
    }
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        for (const { address } of wanted) {
          const refusal = refusalOf(address, policy);
          if (refusal) return callback(new RefusedAddress(`${hostname} resolves to ${refusal}`), '', 0);
        }
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return callback(null, wanted);
        callback(null, wanted[0].address, wanted[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
