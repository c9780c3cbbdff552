// Content negotiation of the REST API (RFC 9110 §12.5.1): the representation an Accept header asks
// for, q-values honoured (negotiator), among JSON, JSON-LD, ActivityStreams JSON and, for transcripts,
// WebVTT; a watch's history is JSON, CSV or an SVG chart.
import Negotiator from 'negotiator';

export type Representation = {
  name: 'json' | 'ld+json' | 'activity+json' | 'vtt' | 'csv' | 'svg';
  contentType: string;
  /** Appended to the ETag: each representation has its own validator (RFC 9110 §8.8.3). */
  etagSuffix: string;
};

export const AS2_PROFILE = 'https://www.w3.org/ns/activitystreams';

export const JSON_REPRESENTATION: Representation = { name: 'json', contentType: 'application/json; charset=utf-8', etagSuffix: '' };
const LD_JSON: Representation = { name: 'ld+json', contentType: `application/ld+json; profile="${AS2_PROFILE}"`, etagSuffix: '-ld' };
const ACTIVITY_JSON: Representation = { name: 'activity+json', contentType: 'application/activity+json', etagSuffix: '-as' };
export const VTT_REPRESENTATION: Representation = { name: 'vtt', contentType: 'text/vtt; charset=utf-8', etagSuffix: '-vtt' };
export const CSV_REPRESENTATION: Representation = { name: 'csv', contentType: 'text/csv; charset=utf-8', etagSuffix: '-csv' };
export const SVG_REPRESENTATION: Representation = { name: 'svg', contentType: 'image/svg+xml; charset=utf-8', etagSuffix: '-svg' };

/**
 * What is offered, in the server's order of preference on a tie. The offers carry every parameter
 * a client may name (negotiator requires each parameter of an Accept entry to match the offer's):
 * `application/ld+json; profile="…activitystreams"` is the AS2 type, and `charset=utf-8` is what is sent.
 */
type Offer = readonly [mediaType: string, representation: Representation];
const JSON_OFFERS: readonly Offer[] = [
  ['application/json; charset=utf-8', JSON_REPRESENTATION],
  [`application/ld+json; profile="${AS2_PROFILE}"; charset=utf-8`, LD_JSON],
  ['application/activity+json; charset=utf-8', ACTIVITY_JSON],
];
const TRANSCRIPT_OFFERS: readonly Offer[] = [...JSON_OFFERS, ['text/vtt; charset=utf-8', VTT_REPRESENTATION]];
/** A history is not an AS2 document: plain JSON only, beside its table and its chart. */
const HISTORY_OFFERS: readonly Offer[] = [JSON_OFFERS[0], ['text/csv; charset=utf-8', CSV_REPRESENTATION], ['image/svg+xml; charset=utf-8', SVG_REPRESENTATION]];

export type OfferSet = 'json' | 'transcript' | 'history';
const OFFER_LISTS: Record<OfferSet, readonly Offer[]> = { json: JSON_OFFERS, transcript: TRANSCRIPT_OFFERS, history: HISTORY_OFFERS };
const OFFERS: Record<OfferSet, { types: string[]; byType: Map<string, Representation> }> = {
  json: index(JSON_OFFERS),
  transcript: index(TRANSCRIPT_OFFERS),
  history: index(HISTORY_OFFERS),
};

function index(offers: readonly Offer[]) {
  return { types: offers.map(([type]) => type), byType: new Map(offers) };
}

/** Accept values seen before, with their answer: clients send the same few, and a hit skips parsing. */
const MEMO_MAX = 512;
const ACCEPT_MEMO_CHARS_MAX = 256;
const memo = new Map<string, Representation | null>();

/**
 * The representation `accept` prefers among `set`, or undefined when it accepts none of them (406).
 * A missing or blank Accept accepts anything (RFC 9110 §12.5.1) and gets JSON, as does `*\/*`.
 * Ties go to the higher q, then the more specific range, then the client's order, then JSON first.
 */
export function negotiate(accept: string | undefined, set: OfferSet): Representation | undefined {
  if (accept === undefined || accept.trim() === '' || accept === '*/*') return JSON_REPRESENTATION;
  const key = `${set}\n${accept}`;
  const known = memo.get(key);
  if (known !== undefined) return known ?? undefined;
  const offers = OFFERS[set];
  const chosen = new Negotiator({ headers: { accept } }).mediaType(offers.types);
  const representation = chosen === undefined ? undefined : offers.byType.get(chosen);
  if (accept.length <= ACCEPT_MEMO_CHARS_MAX) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(key, representation ?? null);
  }
  return representation;
}

/** Every media type an operation of `set` can answer, for the 406 problem and the OpenAPI document. */
export function offeredTypes(set: OfferSet): string[] {
  return OFFER_LISTS[set].map(([, r]) => r.contentType);
}
