/**
 * XML 1.0 `Char` production (section 2.2). With the `u` flag a lone surrogate is one code point in
 * D800–DFFF, which the class excludes, so lone surrogates are caught too.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Whether every character of `s` can be carried by an XML 1.0 document. */
export function isXmlText(s: string): boolean {
  return !NOT_XML_CHAR.test(s);
}

/** XML 1.0 `S` production: space, tab, line feed, carriage return. */
const XML_WHITESPACE_ONLY = /^[ \t\n\r]*$/;

export function isXmlWhitespace(s: string): boolean {
  return XML_WHITESPACE_ONLY.test(s);
}
