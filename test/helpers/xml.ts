// Reads an XML document (an SVG chart) as a small tree for assertions. @xmldom/xmldom parses it and
// every warning or error it reports throws, so a document that is not well-formed fails the test.
// xmldom lets one thing through that XML forbids and a missed escape would produce: a bare `&`.
import { DOMParser, type Element } from '@xmldom/xmldom';

export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_NODE = 4;

function toTree(element: Element): XmlElement {
  const attributes: Record<string, string> = {};
  for (let i = 0; i < element.attributes.length; i++) {
    const attribute = element.attributes.item(i)!;
    attributes[attribute.name] = attribute.value;
  }
  const children: XmlElement[] = [];
  let text = '';
  for (let node = element.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE) children.push(toTree(node as Element));
    else if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_NODE) text += node.nodeValue ?? '';
  }
  return { name: element.tagName, attributes, children, text };
}

/** `&` must start an entity or character reference (XML 1.0 §2.4). */
const BARE_AMPERSAND = /&(?![A-Za-z_][A-Za-z0-9_.-]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)/;

export function parseXml(source: string): XmlElement {
  const bare = BARE_AMPERSAND.exec(source);
  if (bare !== null) throw new Error(`not well-formed XML: a bare "&" at ${bare.index}`);
  const parser = new DOMParser({
    onError: (level, message) => {
      throw new Error(`not well-formed XML (${level}): ${message}`);
    },
  });
  const document = parser.parseFromString(source, 'text/xml');
  if (document.doctype !== null) throw new Error('not well-formed XML for a chart: a DOCTYPE');
  const root = document.documentElement;
  if (root === null) throw new Error('not well-formed XML: no root element');
  return toTree(root);
}

/** Every element of the tree, depth first. */
export function allElements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(allElements)];
}
