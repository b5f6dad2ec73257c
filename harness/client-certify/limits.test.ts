import { describe, expect, it } from 'vitest';
import { runClientCertification } from './run.ts';
import { example, quietScenario, readReport, reportDirs } from './test-support/sessions.ts';

/**
 * The `limits` scenario end to end: for each client, its first token request answered 429 slow_down (Retry-After 1),
 * then three business calls in a row answered 429 RATE_LIMITED (Retry-After 1, 2, 3). The sample client waits each
 * one out and passes (7 s of waiting a client, about 15 s in all); the naive one asks again at once and fails C8.3.
 */
const reportDir = reportDirs('client-limits-test');
const quiet = quietScenario('limits');

describe('partner-api-certify client --scenario limits', () => {
  it('passes the sample client: every Retry-After waited out, at the token endpoint and on business calls', async () => {
    const dir = reportDir();
    const result = await runClientCertification({ ...quiet, command: example('good-client.ts'), reportDir: dir });
    expect(result.commandOutput).toContain('client 2: booked');
    expect(result.exitCode).toBe(0);
    const report = readReport(dir);
    expect(report.scenario).toBe('limits');
    const outcome = Object.fromEntries(report.clauses.map((clause) => [clause.id, clause.outcome]));
    expect(outcome['C8.3']).toBe('pass');
    expect(outcome['C5.3b']).toBe('pass');
    expect(report.clauses.filter((clause) => clause.outcome === 'fail' || clause.outcome === 'warn')).toEqual([]);

    // Each client met each step once, and its reaction came after the Retry-After: the token endpoint's in the OAuth
    // shape, the business calls' as RATE_LIMITED.
    expect(
      report.provoked.map((event) => `${event.exchange.clientId} ${event.step} ${event.exchange.errorCode}`),
    ).toEqual(
      report.clients.flatMap(({ clientId }) => [
        `${clientId} token-slow-down slow_down`,
        `${clientId} business-window-1 RATE_LIMITED`,
        `${clientId} business-window-2 RATE_LIMITED`,
        `${clientId} business-window-3 RATE_LIMITED`,
      ]),
    );
    for (const event of report.provoked) {
      expect(event.exchange.status).toBe(429);
      expect(event.reaction, `${event.step}: no reaction`).not.toBeNull();
      const waitedMs = Date.parse(event.reaction?.receivedAt ?? '') - Date.parse(event.exchange.respondedAt);
      expect(waitedMs, event.step ?? '').toBeGreaterThanOrEqual((event.exchange.retryAfterS ?? 0) * 1000);
    }
  }, 120_000);

  it('fails the naive client on C8.3: it asks again at once, and on what else it really breaks', async () => {
    const dir = reportDir();
    const result = await runClientCertification({
      ...quiet,
      command: example('naive-client.ts'),
      reportDir: dir,
      formats: 'json',
    });
    expect(result.exitCode).toBe(1);
    const report = readReport(dir);
    const failed = report.clauses.filter((clause) => clause.outcome === 'fail').map((clause) => clause.id);
    // Its token request refused, it sends "Bearer undefined" three times over (C7.2b: identical retries of 401
    // INVALID_TOKEN) and asks for a token again within the second (C8.3); then it stops, having no offer to book.
    expect(failed).toEqual(expect.arrayContaining(['C7.2b', 'C8.3']));
    // Nothing but its known faults: the scenario makes no clause fail by itself.
    for (const id of failed) expect(['C4.7d', 'C4.10', 'C5.3b', 'C7.2b', 'C8.3']).toContain(id);
    const c83 = report.clauses.find((clause) => clause.id === 'C8.3');
    expect(c83?.exchanges.map((exchange) => `${exchange.status} ${exchange.errorCode}`)).toContain('429 slow_down');
    expect(report.notes.join('\n')).toMatch(/the command exited 1/);
  }, 60_000);
});
