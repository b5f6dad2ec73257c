import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
import { esc } from './html-kit.ts';
import { headerLines } from './text.ts';

/**
 * Bodies and values as a reader wants them: JSON and XML pretty-printed and highlighted, expected vs actual with
 * what differs marked. Every piece of text goes through esc(); only our own <span>, <del> and <ins> wrap it, so the
 * text content (what a copy or a test reads) is the body itself.
 */

const MAX_PRETTY_CHARS = 100_000;

function span(className: string, text: string): string {
  return `<span class="${className}">${esc(text)}</span>`;
}

/** JSON text re-indented and highlighted; undefined when it does not parse. */
export function prettyJson(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const pretty = JSON.stringify(value, null, 2);
  // Tokens of JSON.stringify's own output: strings (keys when a colon follows), numbers, literals, the rest.
  return pretty.replace(
    /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([^"\d\-tfn]+|.)/g,
    (_, string: string, colon: string, number: string, literal: string, other: string) => {
      if (string !== undefined) return colon ? `${span('j-key', string)}${esc(colon)}` : span('j-str', string);
      if (number !== undefined) return span('j-num', number);
      if (literal !== undefined) return span('j-lit', literal);
      return esc(other);
    },
  );
}

/** XML indented one element a line and highlighted; undefined when it does not look like balanced XML. */
export function prettyXml(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('<') || !trimmed.endsWith('>')) return undefined;
  const tokens = trimmed.split(/(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]+>)/).filter((t) => t.trim() !== '');
  const out: string[] = [];
  let depth = 0;
  const indent = () => '  '.repeat(Math.max(0, depth));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (!token.startsWith('<') || token.startsWith('<![CDATA[')) {
      out.push(`${indent()}${esc(token.trim())}`);
      continue;
    }
    if (/^<[?!]/.test(token)) {
      out.push(`${indent()}${span('x-meta', token)}`);
      continue;
    }
    const closing = token.startsWith('</');
    const selfClosing = token.endsWith('/>');
    if (closing) depth -= 1;
    if (depth < 0) return undefined;
    // <a>text</a> stays on one line.
    const next = tokens[i + 1];
    const after = tokens[i + 2];
    if (!closing && !selfClosing && next !== undefined && !next.startsWith('<') && after?.startsWith('</')) {
      out.push(`${indent()}${tagHtml(token)}${esc(next.trim())}${tagHtml(after)}`);
      i += 2;
      continue;
    }
    out.push(`${indent()}${tagHtml(token)}`);
    if (!closing && !selfClosing) depth += 1;
  }
  return depth === 0 ? out.join('\n') : undefined;
}

function tagHtml(tag: string): string {
  const match = /^(<\/?)([^\s/>]+)([\s\S]*?)(\/?>)$/.exec(tag);
  if (!match) return esc(tag);
  const [, open = '', name = '', rest = '', close = ''] = match;
  const attributes = rest.replace(
    /([^\s=]+)(\s*=\s*)("[^"]*"|'[^']*')|([\s\S])/g,
    (_, attr: string, eq: string, value: string, other: string) =>
      attr !== undefined ? `${span('x-attr', attr)}${esc(eq)}${span('x-val', value)}` : esc(other),
  );
  return `${span('x-tag', `${open}${name}`)}${attributes}${span('x-tag', close)}`;
}

/** A body as HTML: pretty when its media type (or its first character) says JSON or XML, else as it came. */
export function bodyHtml(body: string, contentType: string | undefined): string {
  if (body.length <= MAX_PRETTY_CHARS) {
    const type = (contentType ?? '').toLowerCase();
    const looksJson = /json/.test(type) || /^\s*[[{]/.test(body);
    const looksXml = /xml/.test(type) || /^\s*</.test(body);
    const pretty = (looksJson ? prettyJson(body) : undefined) ?? (looksXml ? prettyXml(body) : undefined);
    if (pretty !== undefined) return pretty;
  }
  return esc(body);
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** The request of an exchange: its line and headers, a blank line, the body pretty. */
export function requestHtml(exchange: EvidenceExchange): string {
  const { request } = exchange;
  const head = esc([`${request.method} ${request.url}`, ...headerLines(request.headers)].join('\n'));
  if (request.body === undefined || request.body === '') return head;
  return `${head}\n\n${bodyHtml(request.body, headerValue(request.headers, 'content-type'))}`;
}

export function responseHtml(exchange: EvidenceExchange): string {
  const { response } = exchange;
  if (!response) return esc('(no response)');
  const head = esc([`HTTP ${response.status}`, ...headerLines(response.headers)].join('\n'));
  if (response.body === undefined || response.body === '') return head;
  return `${head}\n\n${bodyHtml(response.body, headerValue(response.headers, 'content-type'))}`;
}

const MAX_DIFF_LINES = 400;

/** Longest common subsequence of two line lists, as index pairs (small inputs only). */
function commonLines(a: readonly string[], b: readonly string[]): Set<string> {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint16Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        a[i] === b[j]
          ? (table[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
    }
  }
  const pairs = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.add(`a${i}`);
      pairs.add(`b${j}`);
      i += 1;
      j += 1;
    } else if ((table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0)) i += 1;
    else j += 1;
  }
  return pairs;
}

/**
 * Expected and actual as HTML with what differs marked: lines only one side has (multi-line values), or the span
 * between their common start and end (one-line values).
 */
export function diffHtml(expected: string, actual: string): { expected: string; actual: string } {
  const a = expected.split('\n');
  const b = actual.split('\n');
  if ((a.length > 1 || b.length > 1) && a.length <= MAX_DIFF_LINES && b.length <= MAX_DIFF_LINES) {
    const common = commonLines(a, b);
    const side = (lines: string[], key: 'a' | 'b', tag: 'del' | 'ins') =>
      lines
        .map((line, index) => (common.has(`${key}${index}`) ? esc(line) : `<${tag} class="diff">${esc(line)}</${tag}>`))
        .join('\n');
    return { expected: side(a, 'a', 'del'), actual: side(b, 'b', 'ins') };
  }
  let start = 0;
  while (start < expected.length && start < actual.length && expected[start] === actual[start]) start += 1;
  let end = 0;
  while (
    end < expected.length - start &&
    end < actual.length - start &&
    expected[expected.length - 1 - end] === actual[actual.length - 1 - end]
  ) {
    end += 1;
  }
  const mark = (text: string, tag: 'del' | 'ins') => {
    const middle = text.slice(start, text.length - end);
    return `${esc(text.slice(0, start))}${middle ? `<${tag} class="diff">${esc(middle)}</${tag}>` : ''}${esc(text.slice(text.length - end))}`;
  };
  return { expected: mark(expected, 'del'), actual: mark(actual, 'ins') };
}
