/**
 * The shared words are declared once: a second `type Role =` anywhere else would drift from it. The same holds for
 * the resource types of spec section 2: contract/types.ts derives each from its JSON Schema, and nothing else may
 * declare them, so a hand-written copy cannot drift from the schema that judges responses.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_NAMES } from './schemas/names.ts';
import { filesUnder, REPO_ROOT, tsFilesUnder } from './test-support/source-files.ts';

const ROOT = REPO_ROOT;
const HOME = 'contract/vocabulary.ts';
const TYPES_HOME = 'contract/types.ts';
const SCHEMA_VOCABULARY_HOME = 'contract/schemas/building-blocks.ts';

/** A declaration of one of the shared words (exported or not); re-exports and imports do not match. */
const DECLARATION =
  /^\s*(?:export\s+)?(?:type\s+(Role|Profile|Representation|Level)\s*=|const\s+(ROLES|PROFILES|REPRESENTATIONS)\s*[:=])/m;

/** The schema names, and the types contract/types.ts derives from a part of one schema. */
const RESOURCE_TYPES = [...SCHEMA_NAMES, 'RateType', 'ReservationStatus', 'FieldError'];
const RESOURCE_TYPE_DECLARATION = new RegExp(
  `^\\s*(?:export\\s+)?(?:declare\\s+)?(?:type|interface|class|enum)\\s+(${RESOURCE_TYPES.join('|')})\\b`,
  'gm',
);
/** The value lists the schemas' enums are built from. */
const SCHEMA_VOCABULARY_DECLARATION = /^\s*(?:export\s+)?const\s+(RATE_TYPES|RESERVATION_STATUSES)\s*[:=]/m;

/** The spec itself, whose wording is quoted, not ours to rename. */
const SPEC = 'docs/spec/partner-api-v1.md';
/**
 * Exempt from the word rule below: the spec, the design notes (a byte-identical copy of ../shared/design.md,
 * contract/spec-file.test.ts) and this file, which has to spell the rule out.
 */
const WORD_RULE_EXEMPT = new Set([SPEC, 'docs/design.md', 'contract/vocabulary.test.ts']);

const sources = () =>
  tsFilesUnder(ROOT).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

describe('contract/vocabulary.ts', () => {
  it('is the only place that declares Role, Profile, Representation, Level and their lists', () => {
    const elsewhere = sources()
      .filter(({ path, text }) => path !== HOME && DECLARATION.test(text))
      .map(({ path }) => path);
    expect(elsewhere).toEqual([]);
  });

  it('imports nothing from node: (k6 scripts use it too)', () => {
    expect(readFileSync(join(ROOT, HOME), 'utf8')).not.toMatch(/from\s+['"]node:/);
  });
});

describe('contract/types.ts', () => {
  it('is the only place that declares a resource type of the schemas', () => {
    const elsewhere = sources()
      .filter(({ path }) => path !== TYPES_HOME)
      .flatMap(({ path, text }) => [...text.matchAll(RESOURCE_TYPE_DECLARATION)].map((m) => `${path}: ${m[1]}`));
    expect(elsewhere).toEqual([]);
  });

  it('derives each schema-named type from its schema, never by hand', () => {
    const text = readFileSync(join(ROOT, TYPES_HOME), 'utf8');
    const handWritten = [...text.matchAll(RESOURCE_TYPE_DECLARATION)]
      .map((m) => m[1] as string)
      .filter((name) => (SCHEMA_NAMES as readonly string[]).includes(name))
      .filter((name) => !new RegExp(`^export type ${name} = FromBundle<'${name}'>;$`, 'm').test(text));
    expect(handWritten).toEqual([]);
    expect(text, 'no interface: every resource shape comes from a schema').not.toMatch(
      /^\s*(?:export\s+)?interface\s/m,
    );
  });

  it('leaves the schemas the only place that declares the rate types and reservation statuses', () => {
    const elsewhere = sources()
      .filter(({ path, text }) => path !== SCHEMA_VOCABULARY_HOME && SCHEMA_VOCABULARY_DECLARATION.test(text))
      .map(({ path }) => path);
    expect(elsewhere).toEqual([]);
  });
});

/**
 * One meaning per word. "Catalogue" is the clause catalogue (contract/clauses/) and is always written so; "catalog"
 * is the profile name. What a target lists (fleet, locations, rates) are its listings (suites/support/listings.ts,
 * generators' TargetListings), the reference's data its operator data, and its named faults the fault registry.
 * The spec's own phrases with the word ("read live catalogue and pricing data") stay as quoted.
 */
function catalogueMisuses(text: string, specPhrases: ReadonlySet<string>): string[] {
  return [...text.matchAll(/catalog(ue)?/gi)].flatMap((m) => {
    const at = m.index;
    const before = text.slice(Math.max(0, at - 40), at).toLowerCase();
    const ok = m[1]
      ? /clause[\s-]?$/.test(before) || specPhrases.has(`${/(\S+)\s+$/.exec(before)?.[1]} catalogue`)
      : m[0] === 'catalog' && !/\w/.test(text[at - 1] ?? '') && !/\w/.test(text[at + m[0].length] ?? '');
    if (ok) return [];
    const line = text.slice(0, at).split('\n').length;
    return [`${line}: ${text.slice(Math.max(0, at - 30), at + 20).replace(/\s+/g, ' ')}`];
  });
}

describe('the words catalogue and catalog', () => {
  const spec = readFileSync(join(ROOT, SPEC), 'utf8');
  const specPhrases = new Set([...spec.matchAll(/(\S+) catalogue\b/gi)].map((m) => `${m[1]} catalogue`.toLowerCase()));

  it('uses "catalogue" only as the clause catalogue or in a phrase of the spec, and "catalog" only as the profile', () => {
    expect(specPhrases.size, 'the spec still says catalogue somewhere').toBeGreaterThan(0);
    const misused = filesUnder(ROOT, ['.ts', '.md', '.json'])
      .map((path) => relative(ROOT, path))
      .filter((path) => !WORD_RULE_EXEMPT.has(path))
      .flatMap((path) =>
        catalogueMisuses(readFileSync(join(ROOT, path), 'utf8'), specPhrases).map((at) => `${path}:${at}`),
      );
    expect(misused).toEqual([]);
  });

  it('finds the product catalogue under either spelling, and lets the clause catalogue, the profile and the spec be', () => {
    const product = 'const cat: TargetCatalogue = await targetCatalog(t); // the catalogue of the target\n';
    const allowed =
      "profile: 'catalog'; the clause catalogue, clauseCatalogue, clause-catalogue order; read live catalogue and pricing\n";
    expect(catalogueMisuses(product, specPhrases)).toHaveLength(3);
    expect(catalogueMisuses(allowed, specPhrases)).toEqual([]);
  });
});
