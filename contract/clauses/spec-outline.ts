/**
 * A structural reading of the spec's markdown: its sections, and in each the numbered items, bullets and
 * table rows. The clause-catalogue tests use it to prove every list item and table row of the spec has a clause.
 */

export interface OutlineSection {
  id: string;
  title: string;
  /** The heading line and every line up to the next heading of any level. */
  lines: string[];
  /** Items of numbered lists, with the spec's own number. */
  numbered: { n: number; text: string }[];
  bullets: string[];
  /** Table body rows (header and separator rows dropped), as in `tableRowText`. */
  tableRows: string[];
}

const HEADING = /^#{2,3} ([1-9][0-9]*(?:\.[0-9]+)?)\.? (.+)$/;
const NUMBERED = /^([0-9]+)\. (.+)$/;
const BULLET = /^- (.+)$/;

/** Whitespace collapsed, the form in which clause texts are compared with the spec. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A table row without its outer pipes and trailing empty cells, cells still joined by ' | ' as written:
 * '| cdwInsurance | boolean | |' gives 'cdwInsurance | boolean'.
 */
export function tableRowText(line: string): string {
  let row = line.trim().replace(/^\|/, '').replace(/\|$/, '').trim();
  while (row.endsWith('|')) row = row.slice(0, -1).trimEnd();
  return row;
}

/** The first two cells of a table row text (the field and its type, or the code and its status). */
export function leadingCells(row: string): string {
  return row.split(' | ').slice(0, 2).join(' | ');
}

export function parseSpecOutline(markdown: string): OutlineSection[] {
  const sections: OutlineSection[] = [];
  let current: OutlineSection | undefined;
  let tableLine = 0;
  for (const line of markdown.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      current = {
        id: heading[1] ?? '',
        title: heading[2] ?? '',
        lines: [line],
        numbered: [],
        bullets: [],
        tableRows: [],
      };
      sections.push(current);
      tableLine = 0;
      continue;
    }
    if (!current) continue;
    current.lines.push(line);
    if (line.startsWith('|')) {
      tableLine += 1;
      // Line 1 of a table is its header, line 2 the separator.
      if (tableLine > 2) current.tableRows.push(tableRowText(line));
      continue;
    }
    tableLine = 0;
    const numbered = NUMBERED.exec(line);
    if (numbered) current.numbered.push({ n: Number(numbered[1]), text: collapseWhitespace(numbered[2] ?? '') });
    const bullet = BULLET.exec(line);
    if (bullet) current.bullets.push(collapseWhitespace(bullet[1] ?? ''));
  }
  return sections;
}
