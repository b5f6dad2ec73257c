import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../clauses/index.ts';
import { collapseWhitespace } from '../clauses/spec-outline.ts';
import { SPEC_FILE } from '../spec-file.ts';
import { CLIENT_CLAUSES, clientClauseById } from './index.ts';

const SPEC = collapseWhitespace(readFileSync(SPEC_FILE, 'utf8'));
const CLIENT_ID = /^C([1-9](?:\.[1-9][0-9]*)?)([a-z])?$/;

describe('the client clause catalogue', () => {
  it('quotes the spec verbatim in every clause', () => {
    const missing = CLIENT_CLAUSES.filter((clause) => !SPEC.includes(collapseWhitespace(clause.text))).map(
      (clause) => clause.id,
    );
    expect(missing).toEqual([]);
  });

  it('has unique ids of its own scheme, naming their section, that no server clause can take', () => {
    const ids = CLIENT_CLAUSES.map((clause) => clause.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const clause of CLIENT_CLAUSES) {
      expect(CLIENT_ID.exec(clause.id)?.[1], clause.id).toBe(clause.section);
    }
    const serverIds = new Set(CLAUSES.map((clause) => clause.id));
    expect(ids.filter((id) => serverIds.has(id))).toEqual([]);
    expect([...serverIds].filter((id) => id.startsWith('C'))).toEqual([]);
  });

  it('says for each clause what in the traffic shows it, in a short title', () => {
    for (const clause of CLIENT_CLAUSES) {
      expect(clause.title.length, clause.id).toBeLessThanOrEqual(100);
      expect(clause.evidence.length, clause.id).toBeGreaterThan(10);
    }
  });

  it('holds every client obligation the spec states (the sentences docs/client-clauses.md lists)', () => {
    const quoted = CLIENT_CLAUSES.map((clause) => clause.text);
    for (const sentence of [
      'on every other call',
      'reuse one until expiry',
      'application/x-www-form-urlencoded',
      'client_secret_basic, preferred',
      'subset of the grant',
      'unique per attempt',
      'IDEMPOTENT_REPLAY_IN_FLIGHT (retryable)',
      'One reference is one rental',
      'clients switch on it, never on message',
      'retrying the identical request may succeed',
      'request a new one',
      'reason only via support',
      '`Retry-After` in whole seconds',
      'cancel and re-book.',
      'Response type is chosen from Accept',
      'Request Content-Type for business calls',
      'process repeated observations idempotently',
    ]) {
      expect(
        quoted.some((text) => text.includes(sentence)),
        sentence,
      ).toBe(true);
    }
    expect(clientClauseById('C5.3a')?.level).toBe('MUST');
    expect(clientClauseById('C5.2')?.level).toBe('SHOULD');
  });

  it('is listed whole in docs/client-clauses.md', () => {
    const doc = readFileSync(new URL('../../docs/client-clauses.md', import.meta.url), 'utf8');
    expect(CLIENT_CLAUSES.filter((clause) => !doc.includes(`| ${clause.id} |`)).map((c) => c.id)).toEqual([]);
  });
});
