import type { Provocation, RecordedExchange } from '../../contract/client-clauses/exchange.ts';
import { CLIENT_CLAUSES, type ClientClause } from '../../contract/client-clauses/index.ts';
import { packageInfo } from '../../contract/package-info.ts';
import { curlCommand } from '../http/curl.ts';
import { SecretRegistry } from '../http/secrets.ts';
import { esc, page } from '../report/html-kit.ts';
import { xmlEscape } from '../report/junit.ts';
import { type ClientJudgement, type ClientOutcome, type ClientVerdict, scenarioEvents } from './judge.ts';

/**
 * The client certification's report (`partner-api-certify client`): keyed by client clause, each finding with the
 * recorded exchanges that show it. Its own model, not the server report's: a client report has no checks, sections,
 * waivers or seeds, and the server renderers (harness/report/) read those throughout. The four formats keep the
 * server report's file names, so CI that uploads reports/ picks them up the same way.
 */
export const CLIENT_REPORT_VERSION = 1;

/** An exchange as the report shows it: the recording's own fields (the same names), its key and times made readable. */
export interface ClientReportExchange
  extends Pick<
    RecordedExchange,
    | 'seq'
    | 'requestId'
    | 'clientId'
    | 'method'
    | 'path'
    | 'query'
    | 'status'
    | 'errorCode'
    | 'retryable'
    | 'retryAfterS'
    | 'idempotentReplay'
  > {
  idempotencyKey: string | null;
  receivedAt: string;
  respondedAt: string;
  /** The request again, secrets and tokens as $VARIABLES; a body the recording holds only as a digest is said so. */
  curl: string;
}

export interface ClientReportClause {
  id: string;
  section: string;
  level: ClientClause['level'];
  title: string;
  text: string;
  observation: ClientClause['observation'];
  outcome: ClientOutcome;
  reason: string;
  /** The exchanges of a breach, in order (empty for a pass or a clause not judged). */
  exchanges: ClientReportExchange[];
}

/** One thing the scenario provoked, and the client's reaction (docs/client-clauses.md). */
export interface ClientReportEvent {
  provoked: Provocation;
  /** The id of the scenario's step. */
  step: string | null;
  exchange: ClientReportExchange;
  /** Its recovery (a retry, a new token, a new quote, a call after the wait), or null when there was none. */
  reaction: ClientReportExchange | null;
  /** A lost answer: the reservation made, and whether the reaction was its replay (one reservation, not two). */
  withheldReservationId: string | null;
  replayed: boolean;
}

export interface ClientReport {
  kind: 'client-certification';
  version: typeof CLIENT_REPORT_VERSION;
  tool: { name: string; version: string };
  scenario: string;
  startedAt: string;
  finishedAt: string;
  sandbox: { baseUrl: string; transport: 'https' | 'http' };
  /**
   * The partner's command and how it ended (null code: ended by a signal, or never started); null when the sandbox was
   * served by hand (`partner-api-sandbox`) and whatever called it is not known to the report.
   */
  command: { argv: string[]; exitCode: number | null; signal: string | null } | null;
  /** The sandbox clients the command was given, by the environment variable that named each. */
  clients: { clientId: string; env: string }[];
  /** Exchanges recorded in the session. */
  exchanges: number;
  verdict: ClientVerdict;
  exitCode: 0 | 1 | 2;
  counts: Record<ClientOutcome, number>;
  notes: string[];
  clauses: ClientReportClause[];
  /** What the scenario provoked, in order (empty under happy-path). */
  provoked: ClientReportEvent[];
}

export interface ClientReportInput {
  scenario: string;
  startedAt: Date;
  finishedAt: Date;
  baseUrl: string;
  transport: 'https' | 'http';
  command: ClientReport['command'];
  /** Credentials handed to the command: the ids become placeholders in curl lines, the secrets are never printed. */
  credentials: { clientId: string; clientSecret: string; idEnv: string; secretEnv: string }[];
  exchanges: readonly RecordedExchange[];
  judgements: readonly ClientJudgement[];
  verdict: ClientVerdict;
  notes: string[];
}

export const VERDICT_EXIT: Record<ClientVerdict, 0 | 1 | 2> = { passed: 0, failed: 1, 'not-judged': 2 };
const OUTCOMES: readonly ClientOutcome[] = ['pass', 'fail', 'warn', 'not-judged'];

export function buildClientReport(input: ClientReportInput): ClientReport {
  const registry = new SecretRegistry();
  for (const credentials of input.credentials) {
    registry.add(credentials.clientSecret, credentials.secretEnv);
    registry.add(credentials.clientId, credentials.idEnv, { secret: false });
  }
  const bySeq = new Map(input.exchanges.map((exchange) => [exchange.seq, exchange]));
  const clauses = input.judgements.map((judgement): ClientReportClause => {
    const clause = CLIENT_CLAUSES.find((entry) => entry.id === judgement.clauseId);
    return {
      id: judgement.clauseId,
      section: clause?.section ?? '',
      level: judgement.level,
      title: judgement.title,
      text: clause?.text ?? '',
      observation: clause?.observation ?? 'traffic',
      outcome: judgement.outcome,
      reason: judgement.reason,
      exchanges: judgement.evidence.flatMap((seq) => {
        const exchange = bySeq.get(seq);
        return exchange ? [reportExchange(exchange, input, registry)] : [];
      }),
    };
  });
  const counts = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as Record<ClientOutcome, number>;
  for (const clause of clauses) counts[clause.outcome] += 1;
  const tool = packageInfo();
  const provoked = scenarioEvents(input.exchanges).flatMap((event): ClientReportEvent[] => {
    const exchange = bySeq.get(event.seq);
    const reaction = event.reaction === null ? undefined : bySeq.get(event.reaction);
    if (!exchange) return [];
    return [
      {
        provoked: event.provoked,
        step: event.step,
        exchange: reportExchange(exchange, input, registry),
        reaction: reaction ? reportExchange(reaction, input, registry) : null,
        withheldReservationId: event.withheldReservationId,
        replayed: event.replayed,
      },
    ];
  });
  return {
    kind: 'client-certification',
    version: CLIENT_REPORT_VERSION,
    tool: { name: tool.name, version: tool.version },
    scenario: input.scenario,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    sandbox: { baseUrl: input.baseUrl, transport: input.transport },
    command: input.command,
    clients: input.credentials.map((credentials) => ({ clientId: credentials.clientId, env: credentials.idEnv })),
    exchanges: input.exchanges.length,
    verdict: input.verdict,
    exitCode: VERDICT_EXIT[input.verdict],
    counts,
    notes: input.notes,
    clauses,
    provoked,
  };
}

function reportExchange(
  exchange: RecordedExchange,
  input: ClientReportInput,
  registry: SecretRegistry,
): ClientReportExchange {
  return {
    seq: exchange.seq,
    requestId: exchange.requestId,
    clientId: exchange.clientId,
    method: exchange.method,
    path: exchange.path,
    query: exchange.query,
    status: exchange.status,
    errorCode: exchange.errorCode,
    retryable: exchange.retryable,
    retryAfterS: exchange.retryAfterS,
    idempotencyKey: exchange.headers.idempotencyKey,
    idempotentReplay: exchange.idempotentReplay,
    receivedAt: new Date(exchange.receivedAtMs).toISOString(),
    respondedAt: new Date(exchange.respondedAtMs).toISOString(),
    curl: curlOf(exchange, input, registry),
  };
}

/**
 * A curl line as close to the recorded request as the recording allows. The recording never holds a secret, so a
 * bearer token is `$TOKEN_<its hash>` and Basic credentials are the client id's variable and its secret's; a body the
 * recording keeps only as a digest (anything but a booking or a token form) is named by that digest.
 */
function curlOf(exchange: RecordedExchange, input: ClientReportInput, registry: SecretRegistry): string {
  const headers: Record<string, string> = {};
  const origin = new URL(input.baseUrl).origin;
  const auth = exchange.headers.authorization;
  const credentials = input.credentials.find((entry) => entry.clientId === exchange.clientId);
  if (auth?.tokenHash) {
    const token = `token-${auth.tokenHash}`;
    registry.add(token, `TOKEN_${auth.tokenHash}`);
    headers.Authorization = `${auth.scheme} ${token}`;
  } else if (auth && /^basic$/i.test(auth.scheme) && credentials) {
    const pair = `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else if (auth) {
    headers.Authorization = `${auth.scheme} …`;
  }
  if (exchange.headers.accept !== null) headers.Accept = exchange.headers.accept;
  if (exchange.headers.contentType !== null) headers['Content-Type'] = exchange.headers.contentType;
  if (exchange.headers.idempotencyKey !== null) headers['Idempotency-Key'] = exchange.headers.idempotencyKey;
  let body: string | undefined;
  let note = '';
  if (exchange.tokenRequest) {
    const form = new URLSearchParams();
    const { grantType, scope, clientIdInForm, clientSecretInForm } = exchange.tokenRequest;
    if (grantType !== null) form.set('grant_type', grantType);
    if (scope !== null) form.set('scope', scope);
    if (clientIdInForm && exchange.clientId !== null) form.set('client_id', exchange.clientId);
    if (clientSecretInForm) form.set('client_secret', credentials?.clientSecret ?? '[redacted]');
    body = form.toString();
  } else if (exchange.booking && exchange.booking.body !== null) {
    body = JSON.stringify(exchange.booking.body);
    note = ' # body re-serialized from the recording';
  } else if (exchange.bodyBytes > 0) {
    body = '';
    note = ` # body not recorded: ${exchange.bodyBytes} bytes, sha256 ${exchange.bodySha256 ?? '?'}`;
  }
  const url = `${origin}${exchange.path}${exchange.query !== null ? `?${exchange.query}` : ''}`;
  return `${curlCommand({ method: exchange.method, url, headers, ...(body ? { body } : {}) }, registry)}${note}`;
}

const OUTCOME_LABEL: Record<ClientOutcome, string> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warn',
  'not-judged': 'not judged',
};

const VERDICT_LABEL: Record<ClientVerdict, string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  'not-judged': 'NOT JUDGED (no call reached the sandbox)',
};

function countsText(report: ClientReport): string {
  const { pass, fail, warn } = report.counts;
  return `${pass} pass, ${fail} fail, ${warn} warn, ${report.counts['not-judged']} not judged`;
}

function exchangeLine(exchange: ClientReportExchange): string {
  const query = exchange.query !== null ? `?${exchange.query}` : '';
  const code = exchange.errorCode ? ` ${exchange.errorCode}` : '';
  const key = exchange.idempotencyKey !== null ? ` Idempotency-Key: ${exchange.idempotencyKey}` : '';
  const replay = exchange.idempotentReplay ? ' (Idempotent-Replay)' : '';
  return `#${exchange.seq} ${exchange.receivedAt} ${exchange.clientId ?? '(unknown client)'} ${exchange.method} ${exchange.path}${query} → ${exchange.status}${code}${replay}${key}`;
}

function eventLine(event: ClientReportEvent): string {
  const step = event.step ? ` (step ${event.step})` : '';
  const none = event.provoked === 'declined' ? 'not sent again' : 'no reaction';
  const reaction = event.reaction ? `then ${exchangeLine(event.reaction)}` : none;
  const replay =
    event.withheldReservationId === null
      ? ''
      : event.replayed
        ? `; the replay of ${event.withheldReservationId}: one reservation`
        : `; ${event.withheldReservationId} was made and never replayed`;
  return `${event.provoked}${step}: ${exchangeLine(event.exchange)}; ${reaction}${replay}`;
}

function provokedSummary(report: ClientReport): string {
  const counts = new Map<string, number>();
  for (const event of report.provoked) counts.set(event.provoked, (counts.get(event.provoked) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind} ${count}`).join(', ');
}

/** The per-clause table the command prints: one line a clause, then the verdict. */
export function renderClientTable(report: ClientReport): string {
  const idWidth = Math.max(...report.clauses.map((clause) => clause.id.length), 2);
  const lines = report.clauses.map((clause) => {
    const outcome = OUTCOME_LABEL[clause.outcome].padEnd(10);
    const seqs = clause.exchanges.length > 0 ? ` [#${clause.exchanges.map((e) => e.seq).join(', #')}]` : '';
    return `  ${clause.id.padEnd(idWidth)}  ${clause.level.padEnd(6)} ${outcome} ${clause.title}: ${clause.reason}${seqs}`;
  });
  return [
    `Client clauses (scenario ${report.scenario}, ${report.exchanges} exchange(s)):`,
    ...lines,
    ...report.notes.map((note) => `note: ${note}`),
    ...(report.provoked.length > 0
      ? [`Provoked by the scenario: ${provokedSummary(report)} (report.md lists each)`]
      : []),
    `Verdict: ${VERDICT_LABEL[report.verdict]}: ${countsText(report)}`,
    '',
  ].join('\n');
}

export function renderClientJson(report: ClientReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function renderClientMarkdown(report: ClientReport): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    `# Client certification: ${VERDICT_LABEL[report.verdict]}`,
    '',
    `- Scenario: \`${report.scenario}\``,
    `- Command: ${commandText(report, '`')}`,
    `- Sandbox: ${report.sandbox.baseUrl} (${report.sandbox.transport})`,
    `- Clients: ${report.clients.map((client) => `\`${client.clientId}\` (${client.env})`).join(', ')}`,
    `- Exchanges recorded: ${report.exchanges}`,
    `- Clauses: ${countsText(report)}`,
    `- Exit code: ${report.exitCode}`,
    ...report.notes.map((note) => `- Note: ${note}`),
    '',
    '| clause | level | outcome | the client … | why |',
    '|---|---|---|---|---|',
    ...report.clauses.map(
      (clause) =>
        `| ${clause.id} | ${clause.level} | ${OUTCOME_LABEL[clause.outcome]} | ${cell(clause.title)} | ${cell(clause.reason)} |`,
    ),
  ];
  if (report.provoked.length > 0) {
    lines.push('', '## What the scenario provoked, and what the client did', '');
    for (const event of report.provoked) lines.push(`- ${eventLine(event)}`);
  }
  const findings = report.clauses.filter((clause) => clause.exchanges.length > 0);
  if (findings.length > 0) lines.push('', '## Findings');
  for (const clause of findings) {
    lines.push('', `### ${clause.id} ${OUTCOME_LABEL[clause.outcome]}: ${clause.title}`, '');
    lines.push(`> ${clause.text}`, '', clause.reason, '');
    for (const exchange of clause.exchanges) {
      lines.push(`- ${exchangeLine(exchange)}`, '', '  ```sh', `  ${exchange.curl}`, '  ```');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The command and how it ended, or what ran instead: `quote` marks the command's words as code (Markdown). */
function commandText(report: ClientReport, quote = ''): string {
  const { command } = report;
  if (command === null) return 'none: the sandbox was served by hand (partner-api-sandbox) until it was stopped';
  const end =
    command.signal !== null
      ? `ended by ${command.signal}`
      : command.exitCode === null
        ? 'never started'
        : `exit ${command.exitCode}`;
  return `${quote}${command.argv.join(' ')}${quote} (${end})`;
}

export function renderClientJunit(report: ClientReport): string {
  const cases = report.clauses.map((clause) => {
    const name = xmlEscape(`[${clause.id}] ${clause.level} ${clause.title}`, true);
    const open = `    <testcase classname="client-clauses.${xmlEscape(clause.section, true)}" name="${name}">`;
    const detail = [clause.reason, '', ...clause.exchanges.flatMap((e) => [exchangeLine(e), `curl: ${e.curl}`])].join(
      '\n',
    );
    if (clause.outcome === 'fail') {
      return `${open}\n      <failure message="${xmlEscape(clause.reason, true)}">${xmlEscape(detail)}</failure>\n    </testcase>`;
    }
    if (clause.outcome === 'not-judged') {
      return `${open}\n      <skipped message="${xmlEscape(`not judged: ${clause.reason}`, true)}"/>\n    </testcase>`;
    }
    // A SHOULD broken is reported, not failed (as in the server report): JUnit has no warning, so it goes to output.
    const out = clause.outcome === 'warn' ? `\n      <system-out>${xmlEscape(`warn: ${detail}`)}</system-out>\n` : '';
    return `${open}${out}${out ? '    ' : ''}</testcase>`;
  });
  const properties = [
    ['verdict', report.verdict],
    ['exitCode', String(report.exitCode)],
    ['scenario', report.scenario],
    ['exchanges', String(report.exchanges)],
  ]
    .map(([name, value]) => `      <property name="${name}" value="${xmlEscape(value ?? '', true)}"/>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="partner-api client certification" tests="${report.clauses.length}" failures="${report.counts.fail}" skipped="${report.counts['not-judged']}">`,
    `  <testsuite name="client clauses" tests="${report.clauses.length}" failures="${report.counts.fail}" errors="0" skipped="${report.counts['not-judged']}" timestamp="${report.startedAt}">`,
    '    <properties>',
    properties,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The outcome's badge class of the shared style sheet (html-kit): a clause not judged looks like "not checked". */
const BADGE_CLASS: Record<ClientOutcome, string> = {
  pass: 'o-pass',
  fail: 'o-fail',
  warn: 'o-warn',
  'not-judged': 'o-not-checked',
};

export function renderClientHtml(report: ClientReport): string {
  const banner = report.verdict === 'passed' ? 'passed' : report.verdict === 'failed' ? 'failed' : 'unjudged';
  const facts: [string, string][] = [
    ['Scenario', report.scenario],
    ['Command', commandText(report)],
    ['Sandbox', `${report.sandbox.baseUrl} (${report.sandbox.transport})`],
    ['Clients', report.clients.map((client) => `${client.clientId} (${client.env})`).join(', ')],
    ['Exchanges', String(report.exchanges)],
    ['Clauses', countsText(report)],
    ['Exit code', String(report.exitCode)],
  ];
  const badge = (outcome: ClientOutcome) =>
    `<span class="badge ${BADGE_CLASS[outcome]}">${esc(OUTCOME_LABEL[outcome])}</span>`;
  const body = [
    `<section class="banner ${banner}">`,
    `<h1>Client certification: ${esc(VERDICT_LABEL[report.verdict])}</h1>`,
    `<dl>${facts.map(([name, value]) => `<dt>${esc(name)}</dt><dd>${esc(value)}</dd>`).join('')}</dl>`,
    report.notes.length > 0 ? `<ul class="notes">${report.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '',
    '</section>',
    '<section class="panel"><table>',
    '<thead><tr><th>clause</th><th>level</th><th>outcome</th><th>the client …</th><th>why</th></tr></thead><tbody>',
    ...report.clauses.map(
      (clause) =>
        `<tr><td>${esc(clause.id)}</td><td><span class="level">${esc(clause.level)}</span></td><td>${badge(clause.outcome)}</td><td>${esc(clause.title)}</td><td>${esc(clause.reason)}</td></tr>`,
    ),
    '</tbody></table></section>',
  ];
  if (report.provoked.length > 0) {
    body.push(
      '<section class="panel"><h2>What the scenario provoked, and what the client did</h2><ul>',
      ...report.provoked.map((event) => `<li>${esc(eventLine(event))}</li>`),
      '</ul></section>',
    );
  }
  for (const clause of report.clauses.filter((entry) => entry.exchanges.length > 0)) {
    body.push(
      '<details class="clause" open>',
      `<summary>${badge(clause.outcome)} <strong>${esc(clause.id)}</strong> ${esc(clause.title)}</summary>`,
      '<div class="clause-body">',
      `<blockquote>${esc(clause.text)}</blockquote>`,
      `<p class="judged">${esc(clause.reason)}</p>`,
      ...clause.exchanges.map(
        (exchange) =>
          `<div class="exchange failing"><div class="meta">${esc(exchangeLine(exchange))}</div><pre class="curl-line">${esc(exchange.curl)}</pre></div>`,
      ),
      '</div></details>',
    );
  }
  return page(`Client certification: ${VERDICT_LABEL[report.verdict]}`, body, false);
}

export const CLIENT_RENDERERS = {
  json: renderClientJson,
  junit: renderClientJunit,
  html: renderClientHtml,
  md: renderClientMarkdown,
} as const;
