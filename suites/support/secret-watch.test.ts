import { describe, expect, it } from 'vitest';
import { SecretWatch } from './secret-watch.ts';

const token = (i: number) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${i.toString(36).padStart(8, 'x')}.c2lnbmF0dXJl${i}`;

describe('SecretWatch', () => {
  it('finds a client secret anywhere in an answer, and ignores secrets too short to tell apart', () => {
    const watch = new SecretWatch(['s3cr3t-value-of-partnerA', 'short']);
    expect(watch.echoedIn('{"error":{"message":"bad s3cr3t-value-of-partnerAxyz"}}')).toBe(true);
    expect(watch.echoedIn('{"error":{"message":"a short answer"}}')).toBe(false);
  });

  it('finds any issued token, old or new, delimited as JSON, XML, header text or a query would delimit it', () => {
    const watch = new SecretWatch([]);
    for (let i = 0; i < 5_000; i++) watch.addIssued(token(i));
    for (const i of [0, 17, 2_500, 4_999]) {
      expect(watch.echoedIn(`{"hint":"${token(i)}"}`), `JSON ${i}`).toBe(true);
      expect(watch.echoedIn(`<hint>Bearer ${token(i)}</hint>`), `XML ${i}`).toBe(true);
      expect(watch.echoedIn(`token=${token(i)}&x=1`), `query ${i}`).toBe(true);
    }
    expect(watch.echoedIn(`{"hint":"${token(5_000)}"}`), 'never issued').toBe(false);
  });

  it("does not count a token answer's own token, issued before or not", () => {
    const watch = new SecretWatch([]);
    watch.addIssued(token(1));
    expect(watch.echoedIn(`{"access_token":"${token(1)}"}`, token(1))).toBe(false);
    expect(watch.echoedIn(`{"access_token":"${token(2)}","x":"${token(1)}"}`, token(2))).toBe(true);
  });

  it('finds the newest tokens even glued to other token characters', () => {
    const watch = new SecretWatch([]);
    watch.addIssued(token(1));
    expect(watch.echoedIn(`abc${token(1)}def`)).toBe(true);
  });

  it('keeps a bounded number of tokens: the oldest are forgotten, the newest still found', () => {
    const watch = new SecretWatch([]);
    for (let i = 0; i < 100_010; i++) watch.addIssued(token(i));
    expect(watch.echoedIn(` ${token(3)} `)).toBe(false);
    expect(watch.echoedIn(` ${token(100_000)} `)).toBe(true);
  });
});
