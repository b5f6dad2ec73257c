/** The root element of an XML body as written on the wire (spec 4.14, 9: its name, namespace and version). */
import { SaxesParser } from 'saxes';

export interface XmlRoot {
  local: string;
  uri: string;
  version: string | undefined;
  /** Every namespace URI declared anywhere in the document. */
  namespaces: string[];
}

/** The root element of an XML body read by a namespace-aware parser; undefined when it is not well-formed XML. */
export function xmlRootOf(text: string): XmlRoot | undefined {
  const parser = new SaxesParser({ xmlns: true });
  let root: XmlRoot | undefined;
  const namespaces = new Set<string>();
  parser.on('opentag', (tag) => {
    for (const uri of Object.values(tag.ns ?? {})) namespaces.add(uri);
    if (root) return;
    root = { local: tag.local, uri: tag.uri, version: tag.attributes.version?.value, namespaces: [] };
  });
  try {
    parser.write(text).close();
  } catch {
    return undefined;
  }
  return root ? { ...root, namespaces: [...namespaces] } : undefined;
}
