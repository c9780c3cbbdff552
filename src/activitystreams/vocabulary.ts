// reelay's own vocabulary: the terms it emits beyond ActivityStreams 2.0, under one fixed namespace
// IRI shared by every deployment (so the same data is the same RDF wherever it was read), with the
// description each deployment serves as RDFS in JSON-LD and as HTML.

/** The namespace of reelay's terms. Fixed: never derived from a deployment's URL. */
export const REELAY_VOCAB = 'https://w3id.org/reelay/ns#';
/** The vocabulary (ontology) itself: the namespace without its '#'. */
export const REELAY_VOCAB_ONTOLOGY = REELAY_VOCAB.slice(0, -1);

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const AS = 'https://www.w3.org/ns/activitystreams#';

/** How a term's JSON value maps to RDF: a typed literal, a node reference, a JSON literal, or a plain string. */
export type TermValue = 'xsd:integer' | 'xsd:boolean' | '@id' | '@json' | 'string';

export type TermDefinition = {
  value: TermValue;
  comment: string;
  /** Local name in the namespace when it differs from the JSON key. */
  iriName?: string;
  /** A related ActivityStreams term a reader should know about. */
  seeAlso?: string;
};

const count = (comment: string): TermDefinition => ({ value: 'xsd:integer', comment });
const flag = (comment: string): TermDefinition => ({ value: 'xsd:boolean', comment });
const text = (comment: string): TermDefinition => ({ value: 'string', comment });

/** JSON key → definition. Every key reelay emits that ActivityStreams 2.0 does not define is here. */
export const REELAY_TERMS: Readonly<Record<string, TermDefinition>> = {
  internalId: text('The platform\'s own identifier of the object (a string of digits for videos, comments, tags and collections; an opaque string for a user).'),
  entityId: text('The platform\'s identifier of the object as the tag-videos response names it (the same value other responses call internalId).'),
  userId: text('The numeric user id of a person, as a string of digits (it exceeds 2^53).'),
  language: text('Language of the object\'s text or transcript: a BCP 47 code as the platform states it.'),
  status: text('Status code of a comment as the platform states it.'),
  codec: text('Video codec of a media file or live stream quality (e.g. h264).'),
  album: text('Album a sound belongs to.'),
  source: text('Origin of a transcript: ASR (speech recognition), MT (machine translation) or LC (the creator\'s own captions).'),
  cursor: text('Opaque cursor of this collection page ("0" for the first page).'),
  nextCursor: text('Opaque cursor to send to obtain the next page; absent on the last page.'),
  duration: {
    value: 'xsd:integer',
    iriName: 'durationSeconds',
    comment: 'Length of a video or sound in whole seconds. ActivityStreams\' duration is an xsd:duration (e.g. PT178S); reelay keeps the integer the API documents and states its unit here instead.',
    seeAlso: `${AS}duration`,
  },
  viewCount: count('Number of plays of a video, or the current audience of a live stream.'),
  likeCount: count('Number of likes of a video or comment; of a person, likes their videos received.'),
  commentCount: count('Number of comments of a video.'),
  repostCount: count('Number of reposts of a video.'),
  shareCount: count('Number of shares of a video.'),
  saveCount: count('Number of times a video was saved to favourites.'),
  replyCount: count('Number of replies to a comment.'),
  followerCount: count('Number of followers of a person.'),
  followingCount: count('Number of accounts a person follows.'),
  videoCount: count('Number of videos of a person, or of videos that use a sound.'),
  mediaCount: count('Number of videos of a person as the tag-videos response states it.'),
  likedCount: count('Number of videos a person liked, as the tag-videos response states it.'),
  viewerCount: count('Current number of viewers of a live stream.'),
  itemCount: count('Number of items in this collection page.'),
  bitrate: count('Bit rate of a media file or live stream quality, in bits per second.'),
  size: count('Size of a transcript\'s WebVTT text in bytes (UTF-8).'),
  isPrivate: flag('Whether the account is private.'),
  isVerified: flag('Whether the account is verified by the platform.'),
  isLive: flag('Whether the person is live, or the video is a live stream now.'),
  hasLikes: flag('Whether the person\'s liked videos are public.'),
  hasPlaylists: flag('Whether the person has public collections (playlists).'),
  isSponsored: flag('Whether the video is a paid promotion.'),
  isOriginal: flag('Whether the sound is the video creator\'s original sound.'),
  isCopyrighted: flag('Whether the sound is a copyrighted recording.'),
  isPinned: flag('Whether the comment is pinned by the video\'s creator.'),
  isLiked: flag('Whether the platform marks the comment as liked by the account that read it (false for anonymous reads).'),
  audio: { value: '@id', comment: 'The sound (an Audio object) used by a video.' },
  headers: { value: '@json', comment: 'HTTP headers (name to value) a client sends when downloading the media file; an opaque JSON object.' },
};

/** Classes reelay uses that ActivityStreams 2.0 does not define. */
export const REELAY_CLASSES: Readonly<Record<string, string>> = {
  Tag: 'A hashtag of the platform; name is the tag without "#", href its page.',
};

export function termIri(key: string): string {
  return `${REELAY_VOCAB}${REELAY_TERMS[key]?.iriName ?? key}`;
}

/** The vocabulary as RDFS in JSON-LD: one node per class and property, typed ranges, comments. */
export function vocabularyDocument(): Record<string, unknown> {
  const ontology = { '@id': REELAY_VOCAB_ONTOLOGY, '@type': 'owl:Ontology', label: 'reelay vocabulary', comment: 'Terms reelay emits beyond ActivityStreams 2.0. The namespace is fixed for every deployment; each deployment serves this description at /ns/vocab and its JSON-LD context at /ns/social.' };
  const classes = Object.entries(REELAY_CLASSES).map(([name, comment]) => ({ '@id': `${REELAY_VOCAB}${name}`, '@type': 'rdfs:Class', label: name, comment, isDefinedBy: REELAY_VOCAB_ONTOLOGY }));
  const properties = Object.entries(REELAY_TERMS).map(([key, term]) => ({
    '@id': termIri(key),
    '@type': 'rdf:Property',
    label: key,
    comment: term.comment,
    ...(rangeOf(term.value) ? { range: rangeOf(term.value) } : {}),
    ...(term.seeAlso ? { seeAlso: term.seeAlso } : {}),
    isDefinedBy: REELAY_VOCAB_ONTOLOGY,
  }));
  return {
    '@context': {
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      owl: 'http://www.w3.org/2002/07/owl#',
      xsd: XSD,
      label: 'rdfs:label',
      comment: 'rdfs:comment',
      range: { '@id': 'rdfs:range', '@type': '@id' },
      seeAlso: { '@id': 'rdfs:seeAlso', '@type': '@id' },
      isDefinedBy: { '@id': 'rdfs:isDefinedBy', '@type': '@id' },
    },
    '@graph': [ontology, ...classes, ...properties],
  };
}

function rangeOf(value: TermValue): string | undefined {
  if (value === 'xsd:integer') return `${XSD}integer`;
  if (value === 'xsd:boolean') return `${XSD}boolean`;
  if (value === 'string') return `${XSD}string`;
  if (value === '@json') return 'http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON';
  return undefined;
}
