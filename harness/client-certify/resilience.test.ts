import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecording } from './recording.ts';
import { RECORDING_FILE, runClientCertification } from './run.ts';
import { example, quietScenario, readReport, reportDirs } from './test-support/sessions.ts';

/**
 * The `resilience` scenario end to end: the sandbox provokes a 429, a lost booking answer, a replay in flight, a token
 * expired early, an expired and a stale quote and a declined booking for each client, and rewords every message. The
 * sample client passes (about 9 s: two 2-second Retry-After waits), the naive one fails on exactly its faults.
 */
const reportDir = reportDirs('client-resilience-test');
const quiet = quietScenario('resilience');

describe('partner-api-certify client --scenario resilience', () => {
  it('passes the sample client, every provocation met, a lost answer replayed as one reservation', async () => {
    const dir = reportDir();
    const result = await runClientCertification({ ...quiet, command: example('good-client.ts'), reportDir: dir });
    expect(result.commandOutput).toContain('the operator declined the booking');
    expect(result.exitCode).toBe(0);
    const report = readReport(dir);
    expect(report.scenario).toBe('resilience');
    const outcome = Object.fromEntries(report.clauses.map((clause) => [clause.id, clause.outcome]));
    // What only the scenario provokes is now judged, and kept.
    for (const id of ['C4.7d', 'C4.7e', 'C5.3b', 'C6', 'C7.2a', 'C7.2b', 'C7.3a', 'C7.3b', 'C7.3c', 'C8.3']) {
      expect(outcome[id], id).toBe('pass');
    }
    // Only what never reaches the wire is left (docs/client-clauses.md "outside-traffic"), and C5.7: this run serves
    // plain HTTP (quietScenario), as a test that needs no certificate.
    expect(
      Object.entries(outcome)
        .filter(([, o]) => o !== 'pass')
        .map(([id]) => id),
    ).toEqual(['C2.1a', 'C2.1b', 'C5.7']);
    const kinds = new Set(report.provoked.map((event) => event.provoked));
    expect([...kinds].sort()).toEqual([
      '429',
      'declined',
      'in-flight',
      'lost-answer',
      'quote-expired',
      'quote-stale',
      'token-expired',
    ]);

    // Each client's lost answer: the retry is the 200 replay of the reservation made, and no other booking made one.
    const lost = report.provoked.filter((event) => event.provoked === 'lost-answer');
    expect(lost).toHaveLength(2);
    const exchanges = parseRecording(readFileSync(join(dir, RECORDING_FILE), 'utf8'));
    for (const event of lost) {
      expect(event.replayed).toBe(true);
      expect(event.reaction).toMatchObject({ status: 200, idempotentReplay: true });
      expect(event.reaction?.idempotencyKey).toBe(event.exchange.idempotencyKey);
      const made = exchanges.filter(
        (e) =>
          e.booking?.reservationId === event.withheldReservationId ||
          e.withheld?.reservationId === event.withheldReservationId,
      );
      expect(made.map((e) => e.status)).toEqual([503, 200]);
    }
    // Every reservation made in the session is one 201 or one lost answer: the replays named no new one.
    const made = new Set(
      exchanges.flatMap((e) => {
        const id = e.withheld?.reservationId ?? e.booking?.reservationId;
        return id ? [id] : [];
      }),
    );
    expect(made.size).toBe(exchanges.filter((e) => e.status === 201 && e.booking).length + lost.length);
    // Every error answer was reworded, and the token was renewed once per expiry.
    expect(exchanges.filter((e) => e.status >= 400).every((e) => e.messageReworded)).toBe(true);
    expect(exchanges.filter((e) => e.issuedToken)).toHaveLength(4);
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('## What the scenario provoked, and what the client did');
    expect(markdown).toMatch(
      /lost-answer \(step booking-answer-lost\): .*→ 503 DEPENDENCY_UNAVAILABLE.*→ 200 \(Idempotent-Replay\).*one reservation/,
    );
  });

  it('fails the naive client on exactly the clauses its faults break under the scenario', async () => {
    const dir = reportDir();
    const result = await runClientCertification({
      ...quiet,
      command: example('naive-client.ts'),
      reportDir: dir,
      formats: 'json',
    });
    expect(result.exitCode).toBe(1);
    const report = readReport(dir);
    // A fresh key on the lost answer's retry, Retry-After ignored, a token per call, a PATCH. Its identical retries
    // of non-retryable errors (C7.2b) are not met: every call after the 429 falls inside Retry-After.
    expect(report.clauses.filter((clause) => clause.outcome === 'fail').map((clause) => clause.id)).toEqual([
      'C4.7d',
      'C4.10',
      'C5.3b',
      'C8.3',
    ]);
    const lost = report.provoked.find((event) => event.provoked === 'lost-answer');
    expect(lost?.replayed).toBe(false);
    expect(lost?.reaction?.idempotencyKey).not.toBe(lost?.exchange.idempotencyKey);
  });
});
