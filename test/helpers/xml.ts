// A strict parser of the XML subset reelay writes (SVG charts): elements, attributes, text,
// comments, the five predefined entities and character references; no DOCTYPE. It throws on what
// an XML parser refuses as not well-formed, so tests can read a chart as a tree.
export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`"<" in text or an attribute value at ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new Error(`a bare "&" at ${where}`);
    if (ref in ENTITIES) return ENTITIES[ref];
    const code = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1] ?? /^#([0-9]+)$/.exec(ref)?.[1];
    if (code === undefined) throw new Error(`an undefined entity &${ref}; at ${where}`);
    return String.fromCodePoint(parseInt(code, ref.startsWith('#x') ? 16 : 10));
  });
}

export function parseXml(source: string): XmlElement {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`not well-formed XML: ${what} at ${at}`);
  };
  const skipMisc = () => {
    for (;;) {
      const rest = source.slice(at);
      const space = /^\s+/.exec(rest);
      if (space) at += space[0].length;
      else if (rest.startsWith('<!--')) {
        const end = source.indexOf('-->', at + 4);
        if (end < 0) fail('an unclosed comment');
        at = end + 3;
      } else return;
    }
  };
  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) fail('an unclosed declaration');
    at = end + 2;
  }
  skipMisc();
  if (source.startsWith('<!DOCTYPE', at)) fail('a DOCTYPE');

  function element(): XmlElement {
    if (source[at] !== '<') fail('an element expected');
    at++;
    const name = NAME.exec(source.slice(at))?.[0] ?? fail('an element name expected');
    at += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const space = /^\s*/.exec(source.slice(at))![0];
      at += space.length;
      if (source.startsWith('/>', at)) {
        at += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (source[at] === '>') {
        at++;
        break;
      }
      if (space.length === 0) fail('a space before an attribute expected');
      const attribute = /^([A-Za-z_:][A-Za-z0-9_:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(source.slice(at)) ?? fail(`a malformed attribute in <${name}>`);
      if (Object.hasOwn(attributes, attribute[1])) fail(`a duplicate attribute ${attribute[1]}`);
      attributes[attribute[1]] = decode(attribute[2] ?? attribute[3], at);
      at += attribute[0].length;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      const next = source.indexOf('<', at);
      if (next < 0) fail(`<${name}> is not closed`);
      text += decode(source.slice(at, next), at);
      at = next;
      if (source.startsWith('</', at)) {
        const end = new RegExp(`^</${name.replace(/[.]/g, '\\.')}\\s*>`).exec(source.slice(at)) ?? fail(`</${name}> expected`);
        at += end[0].length;
        return { name, attributes, children, text };
      }
      if (source.startsWith('<!--', at)) {
        const end = source.indexOf('-->', at + 4);
        if (end < 0) fail('an unclosed comment');
        at = end + 3;
        continue;
      }
      children.push(element());
    }
  }

  const root = element();
  skipMisc();
  if (at !== source.length) fail('content after the root element');
  return root;
}

/** Every element of the tree, depth first. */
export function allElements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(allElements)];
}
