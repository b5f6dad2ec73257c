/**
 * String arbitraries limited to characters an XML 1.0 document can carry (spec 4.14; docs/ambiguities.md #19),
 * so every generated valid value has both a JSON and an XML form.
 *
 * Every unit is one code point of the Basic Multilingual Plane, so a string's length is the same whether a
 * server counts UTF-16 units (JavaScript), code points (JSON Schema) or bytes-agnostic "characters": a
 * generated 100-character name is 100 characters under every reading of the spec's limits.
 */
import fc from 'fast-check';

/** Vietnamese letters with their diacritics, lower and upper case (all precomposed, one code point each). */
export const VIETNAMESE_LETTERS =
  'àáảãạăằắẳẵặâầấẩẫậđèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ' +
  'ÀÁẢÃẠĂẰẮẲẴẶÂẦẤẨẪẬĐÈÉẺẼẸÊỀẾỂỄỆÌÍỈĨỊÒÓỎÕỌÔỒỐỔỖỘƠỜỚỞỠỢÙÚỦŨỤƯỪỨỬỮỰỲÝỶỸỴ';

const vietnameseLetter = fc.constantFrom(...VIETNAMESE_LETTERS);
const printableAscii = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const xmlWhitespace = fc.constantFrom('\t', '\n', '\r');

// The BMP part of the XML 1.0 `Char` production without the controls: U+0020–U+D7FF and U+E000–U+FFFD
// (surrogates excluded), addressed as one integer range so each value is equally reachable.
const LOW_SPAN = 0xd7ff - 0x20 + 1;
const anyBmpXmlChar = fc
  .integer({ min: 0, max: LOW_SPAN + (0xfffd - 0xe000 + 1) - 1 })
  .map((i) => String.fromCharCode(i < LOW_SPAN ? 0x20 + i : 0xe000 + (i - LOW_SPAN)));

/** One XML-representable BMP character: mostly printable ASCII and Vietnamese, some whitespace and any other. */
export function xmlChar(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: printableAscii, weight: 6 },
    { arbitrary: vietnameseLetter, weight: 3 },
    { arbitrary: xmlWhitespace, weight: 1 },
    { arbitrary: anyBmpXmlChar, weight: 2 },
  );
}

export interface TextOptions {
  minLength?: number;
  maxLength: number;
  /** At least one character that is not whitespace (for required human text such as a cancel reason). */
  nonBlank?: boolean;
  unit?: fc.Arbitrary<string>;
}

/**
 * Text of `minLength` to `maxLength` characters, with the two boundary lengths drawn often: fast-check's own
 * bias favours short strings, and the limits are where servers go wrong.
 */
export function xmlText(options: TextOptions): fc.Arbitrary<string> {
  const min = options.minLength ?? 0;
  const max = options.maxLength;
  const unit = options.unit ?? xmlChar();
  const ofLength = (minLength: number, maxLength: number) => fc.string({ unit, minLength, maxLength });
  const text = fc.oneof(
    { arbitrary: ofLength(min, max), weight: 6 },
    { arbitrary: ofLength(max, max), weight: 1 },
    { arbitrary: ofLength(min, min), weight: 1 },
  );
  if (!options.nonBlank) return text;
  // Replacing the first character keeps the length, so the boundaries stay exact.
  return fc
    .tuple(text, fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzĐđƯư'))
    .map(([s, c]) => (/\S/.test(s) || s.length === 0 ? s : c + s.slice(1)));
}

/** Visible ASCII (U+0021–U+007E): what an HTTP header value can carry without quoting. */
export function visibleAsciiChar(): fc.Arbitrary<string> {
  return fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
}

/** Removes diacritics for the ASCII parts of a generated email address: Nguyễn Đức → nguyen.duc. */
export function asciiFold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '');
}
