/**
 * JSON attacks on a request body (spec 4.13): invalid JSON, invalid UTF-8, duplicate and prototype-polluting
 * property names, deep nesting and size. Each is a valid request's JSON with one fault. Where the spec says
 * nothing (duplicate names, a JSON size limit) the case is 'unspecified': no MUST check asserts it.
 */
import { MEDIA_TYPES } from '../contract/constants.ts';
import { LIMITS } from '../contract/limits.ts';
import type { JsonValue } from '../contract/types.ts';
import { type BodyCase, concatBytes, INVALID_UTF8, utf8 } from './cases.ts';
import { accepted, type Expectation, rejectWith, rejectWithAnyCodeOf } from './expectations.ts';
import { UNKNOWN_PROPERTY } from './hostile-schema.ts';
import { spliceFirstString } from './splice.ts';

const MUST_MALFORMED = rejectWith('MUST', 'spec 4.13: invalid JSON body gets 400 MALFORMED_JSON', 'MALFORMED_JSON');

/** Every named JSON attack on one valid request value (an object: a request body). */
export function jsonAttacks(valid: object): BodyCase[] {
  const value = valid as JsonValue;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('jsonAttacks: a request object');
  const json = JSON.stringify(value);
  const record = value as Record<string, JsonValue>;
  const [firstKey] = Object.keys(record);
  if (firstKey === undefined) throw new Error('jsonAttacks: the request has no property');
  const rest = json.slice(1); // everything after the opening brace
  const cases: BodyCase[] = [];
  const add = (name: string, body: string | Uint8Array, expect: Expectation) =>
    cases.push({
      name: `json: ${name}`,
      contentType: MEDIA_TYPES.json,
      bytes: typeof body === 'string' ? utf8(body) : body,
      expect,
    });

  add('truncated (last byte missing)', json.slice(0, -1), MUST_MALFORMED);
  add('trailing garbage', `${json} x`, MUST_MALFORMED);
  add('single-quoted key', json.replace(/^\{"([^"]*)"/, "{'$1'"), MUST_MALFORMED);
  add('unquoted key', json.replace(/^\{"([^"]*)"/, '{$1'), MUST_MALFORMED);
  add('trailing comma', json.replace(/\}$/, ',}'), MUST_MALFORMED);
  add('NaN literal', `{"${UNKNOWN_PROPERTY}":NaN,${rest}`, MUST_MALFORMED);
  add('comment', `{/* probe */${rest}`, MUST_MALFORMED);
  add(
    'raw control character in a string',
    spliceFirstString(value, JSON.stringify, { mode: 'append', fault: () => '\u0001' }),
    MUST_MALFORMED,
  );
  add(
    'empty body',
    '',
    rejectWith('MUST', 'spec 4.13; docs/ambiguities.md #45: 400', 'MALFORMED_JSON', 'VALIDATION_ERROR'),
  );

  // RFC 8259 8.1: JSON exchanged between systems is UTF-8; MALFORMED_JSON is inferred, not stated.
  for (const bad of INVALID_UTF8) {
    add(
      `invalid UTF-8: ${bad.name}`,
      spliceFirstString(value, JSON.stringify, { mode: 'append', fault: () => bad.bytes }),
      rejectWith('SHOULD', 'RFC 8259 8.1 (JSON text is UTF-8), spec 4.13 MALFORMED_JSON (inferred)', 'MALFORMED_JSON'),
    );
  }

  // Duplicate names: JSON.parse keeps the last; RFC 8259 leaves it to the parser and the spec says nothing.
  const original = JSON.stringify(record[firstKey]);
  const wrong = JSON.stringify(typeof record[firstKey] === 'string' ? 42 : 'x');
  add(`duplicate property "${firstKey}", same value`, `{"${firstKey}":${original},${rest}`, 'unspecified');
  add(`duplicate property "${firstKey}", invalid value first`, `{"${firstKey}":${wrong},${rest}`, 'unspecified');
  add(
    `duplicate property "${firstKey}", invalid value last`,
    `${json.slice(0, -1)},"${firstKey}":${wrong}}`,
    'unspecified',
  );

  // Prototype pollution: an unknown property of a closed object (spec 2), or refused by a hardened parser.
  // An unknown property's code is open beyond VALIDATION_ERROR (7.3, docs/ambiguities.md G8).
  const protoBasis =
    "spec 2: objects are closed; a parser refusing the name may answer MALFORMED_JSON; 7.3: an unknown field's code is open";
  add(
    'property "__proto__"',
    `{"__proto__":{"polluted":true},${rest}`,
    rejectWithAnyCodeOf('MUST', protoBasis, 'VALIDATION_ERROR', 'MALFORMED_JSON'),
  );
  add(
    'property "constructor" with "prototype"',
    `{"constructor":{"prototype":{"polluted":true}},${rest}`,
    rejectWithAnyCodeOf('MUST', protoBasis, 'VALIDATION_ERROR', 'MALFORMED_JSON'),
  );
  const depth = 5_000;
  add(
    `${depth} nested arrays under an unknown property`,
    `{"${UNKNOWN_PROPERTY}":${'['.repeat(depth)}${']'.repeat(depth)},${rest}`,
    rejectWithAnyCodeOf(
      'MUST',
      "spec 2: objects are closed; a parser refusing the depth may answer MALFORMED_JSON; 7.3: an unknown field's code is open",
      'VALIDATION_ERROR',
      'MALFORMED_JSON',
    ),
  );

  // Valid JSON of another top-level type: every request body is an object (spec 2.12), so the schema refuses it;
  // whether as VALIDATION_ERROR, MALFORMED_JSON or a code of the server's own, 7.3 does not say.
  const notAnObject = rejectWithAnyCodeOf(
    'MUST',
    'spec 2.12: a request body is an object; 7.3 leaves the code of this rejection open',
    'VALIDATION_ERROR',
    'MALFORMED_JSON',
  );
  add('top-level array holding the request', `[${json}]`, notAnObject);
  add('top-level string', JSON.stringify(json), notAnObject);
  add('top-level number', '42', notAnObject);
  add('top-level null', 'null', notAnObject);
  add('top-level true', 'true', notAnObject);
  // RFC 8259 8.1: a parser MAY ignore a byte order mark rather than treat it as an error: either answer.
  add('byte order mark before the text', concatBytes(new Uint8Array([0xef, 0xbb, 0xbf]), json), 'unspecified');

  // Size: spec 8 limits XML bodies only (docs/ambiguities.md #15).
  const maxBytes = LIMITS.xml.maxBytes;
  const jsonBytes = utf8(json).length;
  const pad = (size: number) => `{${' '.repeat(size - jsonBytes)}${rest}`;
  add(
    `exactly ${maxBytes} bytes`,
    pad(maxBytes),
    accepted('SHOULD', 'spec 4.13: a valid JSON body is read; no JSON size limit is stated'),
  );
  add(`${maxBytes + 1} bytes`, pad(maxBytes + 1), 'unspecified');
  return cases;
}
