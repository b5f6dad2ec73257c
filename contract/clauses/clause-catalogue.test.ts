import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SPEC_FILE } from '../spec-file.ts';
import {
  CLAUSES,
  type Clause,
  clauseById,
  clausesInSection,
  compareClauseIds,
  NON_SERVICE_STATEMENTS,
  OPEN_POINTS,
  SECTIONS,
} from './index.ts';
import { collapseWhitespace, leadingCells, type OutlineSection, parseSpecOutline } from './spec-outline.ts';

const SPEC = readFileSync(SPEC_FILE, 'utf8');
const OUTLINE = parseSpecOutline(SPEC);

/** The id scheme documented in types.ts: <section>.<item>[<part>], item 0.n for a preamble of 2, 4 or 7. */
const ID_SCHEME = /^([1-9](?:\.[1-9][0-9]*)?)\.((?:0\.)?[1-9][0-9]*)([a-z])?$/;

/** Rate-limiting item n of section 8 is clause 8.(rows of the limit table + n). */
const NUMBERED_LIST_SECTIONS = ['1', '4.7', '5', '8', '9'];

/** Headings with no statement of their own, and why. */
const DESCRIPTIVE_SECTIONS: Record<string, string> = {
  '7': 'heading only; its rules are in 7.1 to 7.3',
};

/** Bullets that state no requirement, and why. */
const DESCRIPTIVE_BULLETS: { section: string; startsWith: string; reason: string }[] = [
  { section: '1', startsWith: 'read the vehicle catalogue', reason: 'purpose; endpoint rows 4.0.5–4.0.8 carry it' },
  { section: '1', startsWith: 'read their own commercial account', reason: 'purpose; 4.0.9 and 4.4 carry it' },
  { section: '1', startsWith: 'shop (search offerable', reason: 'purpose; 4.0.10 and 4.5 carry it' },
  { section: '1', startsWith: 'price one vehicle', reason: 'purpose; 4.0.11 and 4.6 carry it' },
  { section: '1', startsWith: 'create, list, read and cancel', reason: 'purpose; 4.0.12–4.0.16 carry it' },
  { section: '2.12', startsWith: 'TokenRequest, TokenResponse', reason: 'cross-reference to sections 5 and 7' },
  { section: '4.14', startsWith: 'Typed elements:', reason: 'introduces the table; rows are 4.14.5–4.14.12' },
];

function outlineSection(id: string): OutlineSection {
  const section = OUTLINE.find((candidate) => candidate.id === id);
  if (!section) throw new Error(`spec has no section ${id}`);
  return section;
}

function sectionBody(id: string): string {
  return collapseWhitespace(outlineSection(id).lines.join('\n'));
}

function clausesOf(section: string): Clause[] {
  return CLAUSES.filter((clause) => clause.section === section);
}

function isTopLevelWithSubsections(section: string): boolean {
  return !section.includes('.') && SECTIONS.some((candidate) => candidate.id.startsWith(`${section}.`));
}

/** The clause id prefix of numbered item n of a section with a numbered list. */
function itemId(section: string, n: number): string {
  if (section === '8') return `8.${outlineSection('8').tableRows.length + n}`;
  return `${section}.${n}`;
}

function idMatchesItem(id: string, itemPrefix: string): boolean {
  return id === itemPrefix || new RegExp(`^${itemPrefix.replaceAll('.', '\\.')}[a-z]$`).test(id);
}

describe('spec outline (sanity of the parser the coverage tests rely on)', () => {
  it('finds the headings, lists and tables of the spec', () => {
    expect(OUTLINE.length).toBeGreaterThan(30);
    expect(outlineSection('4.7').numbered.map((item) => item.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outlineSection('7.3').tableRows.length).toBeGreaterThan(30);
    expect(outlineSection('4').tableRows.every((row) => /^(GET|POST|PATCH) \| \/api\/partner\/v1\//.test(row))).toBe(
      true,
    );
    expect(outlineSection('2.3').tableRows).toContain('cdwInsurance | boolean');
    expect(outlineSection('4.13').bullets.length).toBeGreaterThan(3);
  });

  it('collapses whitespace', () => {
    expect(collapseWhitespace(' a \n\t b  ')).toBe('a b');
  });
});

describe('clause ids', () => {
  it('are unique', () => {
    const ids = CLAUSES.map((clause) => clause.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('follow the documented scheme and start with their own section', () => {
    for (const clause of CLAUSES) {
      const match = ID_SCHEME.exec(clause.id);
      expect(match, clause.id).not.toBeNull();
      expect(match?.[1], `${clause.id} section`).toBe(clause.section);
      const preamble = match?.[2]?.startsWith('0.') ?? false;
      expect(preamble, `${clause.id}: 0.n is for the preamble of a section with subsections`).toBe(
        isTopLevelWithSubsections(clause.section),
      );
    }
  });

  it('number the items of each section 1..N without gaps, an item either whole or split from "a"', () => {
    const items = new Map<string, Map<number, string[]>>();
    for (const clause of CLAUSES) {
      const [, section = '', item = '', part = ''] = ID_SCHEME.exec(clause.id) ?? [];
      const number = Number(item.replace(/^0\./, ''));
      const bySection = items.get(section) ?? new Map<number, string[]>();
      bySection.set(number, [...(bySection.get(number) ?? []), part]);
      items.set(section, bySection);
    }
    for (const [section, bySection] of items) {
      const numbers = [...bySection.keys()].sort((a, b) => a - b);
      expect(numbers, `items of ${section}`).toEqual(numbers.map((_, index) => index + 1));
      for (const [number, parts] of bySection) {
        const expected = parts.length === 1 ? [''] : parts.map((_, index) => String.fromCharCode(97 + index));
        expect(parts, `parts of ${section} item ${number}`).toEqual(expected);
      }
    }
  });

  it('are in natural order, section by section', () => {
    for (let i = 1; i < CLAUSES.length; i++) {
      const previous = CLAUSES[i - 1]?.id ?? '';
      const current = CLAUSES[i]?.id ?? '';
      expect(compareClauseIds(previous, current), `${previous} before ${current}`).toBeLessThan(0);
    }
  });

  it('compare naturally', () => {
    const shuffled = ['4.10.1', '4.7.10', '4.7.9b', '2.0.3', '4.7.9', '4.1.1', '2.1.1', '4.7.9a', '4', '10.1'];
    expect([...shuffled].sort(compareClauseIds)).toEqual([
      '2.0.3',
      '2.1.1',
      '4',
      '4.1.1',
      '4.7.9',
      '4.7.9a',
      '4.7.9b',
      '4.7.10',
      '4.10.1',
      '10.1',
    ]);
    expect(compareClauseIds('8.13', '8.13')).toBe(0);
  });
});

describe('clause fields', () => {
  it('belong to a section of the spec', () => {
    const known = new Set(SECTIONS.map((section) => section.id));
    for (const clause of CLAUSES)
      expect(known.has(clause.section), `${clause.id} section ${clause.section}`).toBe(true);
  });

  it('have short titles and a level, verification and profile that agree', () => {
    for (const clause of CLAUSES) {
      expect(clause.title.length, clause.id).toBeGreaterThan(0);
      expect(clause.title.length, clause.id).toBeLessThanOrEqual(100);
      expect(['MUST', 'SHOULD']).toContain(clause.level);
      expect(['wire', 'hooks', 'https', 'static']).toContain(clause.verification);
      expect(['catalog', 'shop', 'book', 'full']).toContain(clause.minProfile);
      // Control operations are only allowed by the full profile.
      if (clause.verification === 'hooks') expect(clause.minProfile, clause.id).toBe('full');
    }
  });

  it('quote the spec verbatim, from their own section', () => {
    for (const clause of CLAUSES) {
      expect(clause.text, clause.id).toBe(collapseWhitespace(clause.text));
      expect(clause.text.length, clause.id).toBeGreaterThan(0);
      expect(sectionBody(clause.section), clause.id).toContain(clause.text);
    }
  });

  it('never quote what the spec leaves open', () => {
    for (const clause of CLAUSES) expect(clause.text, clause.id).not.toMatch(/not shown/i);
  });

  it('do not repeat a text within a section', () => {
    for (const section of SECTIONS) {
      const texts = clausesOf(section.id).map((clause) => clause.text);
      expect(
        texts.filter((text, index) => texts.indexOf(text) !== index),
        section.id,
      ).toEqual([]);
    }
  });
});

describe('sections', () => {
  it('are exactly the headings of the spec, in order', () => {
    expect(SECTIONS.map(({ id, title }) => ({ id, title }))).toEqual(OUTLINE.map(({ id, title }) => ({ id, title })));
  });

  it('each have a clause of their own, unless listed as descriptive with a reason', () => {
    for (const section of SECTIONS) {
      const own = clausesOf(section.id).length;
      if (section.id in DESCRIPTIVE_SECTIONS) expect(own, section.id).toBe(0);
      else expect(own, `${section.id} ${section.title}`).toBeGreaterThan(0);
    }
  });

  it('list the clauses of CLAUSES in section order', () => {
    const order = SECTIONS.map((section) => section.id);
    const positions = CLAUSES.map((clause) => order.indexOf(clause.section));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe('coverage of the spec', () => {
  it('has numbered lists exactly in the sections the id scheme maps', () => {
    expect(OUTLINE.filter((section) => section.numbered.length > 0).map((section) => section.id)).toEqual(
      NUMBERED_LIST_SECTIONS,
    );
  });

  it('gives every numbered item a clause quoting it, or an open point / non-service statement', () => {
    for (const sectionId of NUMBERED_LIST_SECTIONS) {
      for (const item of outlineSection(sectionId).numbered) {
        const prefix = itemId(sectionId, item.n);
        const clauses = clausesOf(sectionId).filter((clause) => idMatchesItem(clause.id, prefix));
        for (const clause of clauses) expect(item.text, `${clause.id} quotes item ${item.n}`).toContain(clause.text);
        const accounted = [...OPEN_POINTS, ...NON_SERVICE_STATEMENTS].some(
          (statement) => statement.section === sectionId && item.text.includes(statement.text),
        );
        expect(clauses.length > 0 || accounted, `${sectionId} item ${item.n} (${prefix})`).toBe(true);
      }
    }
  });

  it('gives every table row of the spec a clause quoting it', () => {
    for (const section of OUTLINE) {
      for (const row of section.tableRows) {
        const covered = clausesOf(section.id).some(
          (clause) => row.includes(clause.text) && clause.text.startsWith(leadingCells(row)),
        );
        expect(covered, `${section.id}: ${row}`).toBe(true);
      }
    }
  });

  it('gives every endpoint row of section 4 a clause that is exactly that row', () => {
    const rows = outlineSection('4').tableRows;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(clausesOf('4').map((clause) => clause.text)).toContain(row);
  });

  it('gives every error code of 7.3 one clause naming it with its status and retryability', () => {
    const rows = outlineSection('7.3').tableRows;
    expect(clausesOf('7.3')).toHaveLength(rows.length);
    for (const row of rows) {
      const [code = '', status = '', retryable = ''] = row.split(' | ');
      const clause = clausesOf('7.3').find((candidate) => candidate.text.startsWith(`${code} | `));
      expect(clause, code).toBeDefined();
      expect(clause?.text, code).toBe(row);
      expect(clause?.text.startsWith(`${code} | ${status} | ${retryable} | `), code).toBe(true);
    }
  });

  it('gives every bullet a clause quoting it, unless listed as descriptive with a reason', () => {
    for (const section of OUTLINE) {
      for (const bullet of section.bullets) {
        const descriptive = DESCRIPTIVE_BULLETS.some(
          (entry) => entry.section === section.id && bullet.startsWith(entry.startsWith),
        );
        const quoted = clausesOf(section.id).some((clause) => bullet.includes(clause.text));
        expect(descriptive !== quoted, `${section.id}: ${bullet}`).toBe(true);
      }
    }
  });

  it('accounts for every "not shown" of the spec with an open point', () => {
    for (const section of OUTLINE) {
      const occurrences = collapseWhitespace(section.lines.join('\n')).match(/not shown/g)?.length ?? 0;
      const points = OPEN_POINTS.filter((point) => point.section === section.id);
      expect(points.length, `open points of ${section.id}`).toBe(occurrences);
    }
  });

  it('quotes open points and non-service statements verbatim from their section', () => {
    for (const point of OPEN_POINTS) {
      expect(point.text).toMatch(/not shown/);
      expect(sectionBody(point.section)).toContain(point.text);
    }
    for (const statement of NON_SERVICE_STATEMENTS) {
      expect(statement.reason.length).toBeGreaterThan(0);
      expect(sectionBody(statement.section)).toContain(statement.text);
      expect(CLAUSES.some((clause) => clause.text.includes(statement.text))).toBe(false);
    }
  });
});

describe('lookups', () => {
  it('clauseById finds a clause and nothing else', () => {
    expect(clauseById('4.7.3')?.text).toContain('Idempotent-Replay: true');
    expect(clauseById('4.7.99')).toBeUndefined();
    for (const clause of CLAUSES) expect(clauseById(clause.id)).toBe(clause);
  });

  it("clausesInSection('4.1') excludes 4.10 to 4.14", () => {
    const clauses = clausesInSection('4.1');
    expect(clauses.length).toBeGreaterThan(0);
    expect(clauses.every((clause) => clause.section === '4.1')).toBe(true);
    expect(clausesInSection('4.10').every((clause) => clause.section === '4.10')).toBe(true);
  });

  it("clausesInSection('4') gives the preamble and every 4.x clause, in order", () => {
    const expected = CLAUSES.filter((clause) => clause.section === '4' || clause.section.startsWith('4.'));
    expect(clausesInSection('4')).toEqual(expected);
    expect(clausesInSection('4').some((clause) => clause.section === '4.14')).toBe(true);
    expect(clausesInSection('4.7').map((clause) => clause.id)).toContain('4.7.10');
  });

  it("clausesInSection('2.1') gives only Money", () => {
    expect(clausesInSection('2.1').map((clause) => clause.section)).toEqual(
      clausesOf('2.1').map((clause) => clause.section),
    );
    expect(clausesInSection('2.1').length).toBeGreaterThan(0);
  });
});
