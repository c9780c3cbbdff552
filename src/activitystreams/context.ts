// The JSON-LD context document served at the social namespace URL: it maps every term reelay
// emits beyond ActivityStreams 2.0 to its IRI in reelay's fixed vocabulary, so a JSON-LD processor
// expands each field to the same IRI whichever deployment served the data.
import { REELAY_CLASSES, REELAY_TERMS, REELAY_VOCAB, termIri } from './vocabulary.ts';

export type { TermDefinition, TermValue } from './vocabulary.ts';

/** The context document. It lives at each deployment's own URL; its content is the same everywhere. */
export function socialContext(): { '@context': Record<string, unknown> } {
  const context: Record<string, unknown> = {
    '@version': 1.1,
    xsd: 'http://www.w3.org/2001/XMLSchema#',
    reelay: REELAY_VOCAB,
  };
  for (const name of Object.keys(REELAY_CLASSES)) context[name] = `${REELAY_VOCAB}${name}`;
  for (const [key, term] of Object.entries(REELAY_TERMS)) {
    // Terms of ActivityStreams redefined here (duration, source) take reelay's meaning: this
    // context comes after the ActivityStreams one in every document.
    context[key] = term.value === 'string' ? termIri(key) : { '@id': termIri(key), '@type': term.value };
  }
  return { '@context': context };
}
