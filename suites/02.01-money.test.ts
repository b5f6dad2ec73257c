/**
 * Spec 2.1 Money: every Money of every sampled response (listing reads, shopping, a booking's life) has exactly its
 * four fields, an ISO 4217 currency, an integer amount (written as an integer on the wire), an exponent of 0 to 4
 * and a display string.
 */
import { describe, expect } from 'vitest';
import { parseNumberText } from '../contract/xml/index.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { sharedListingRead } from './support/listings.ts';
import { amountLexemes, ISO_CURRENCIES } from './support/money.ts';
import { business } from './support/presets.ts';
import {
  expectSamples,
  forSamples,
  levelOptions,
  SAMPLE_LEVELS,
  type Sample,
  type SampleLevel,
} from './support/samples.ts';
import { moneyNodes } from './support/schema-walk.ts';

/**
 * Whether an amount's lexeme writes an integer (spec 2.1: "integer minor units, never decimal or float"). In JSON the
 * integer is written plainly (`1500000`; `1500000.0` or `1.5e6` is a float on the wire). In XML a number may be
 * written in "integer, decimal or exponent notation" (4.14) and converts to the same JSON value, so `1500000.00` and
 * `1.5E6` are the integer 1500000; whitespace around the text is the XML reader's (4.14.10 judges the lexical form).
 */
function integerLexeme(lexeme: string, json: boolean): boolean {
  if (json) return /^-?(0|[1-9][0-9]*)$/.test(lexeme);
  const n = parseNumberText(lexeme.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ''));
  return n !== undefined && Number.isInteger(n);
}

const isJson = (s: Sample) => s.res.mediaType === 'application/json';

describe('2.1 Money', () => {
  type MoneyAt = { where: string; value: unknown };

  /**
   * Judges the Money of a level: among the listings only the fleet (deposits, mileage fees), read once; else a
   * property over the level's samples (forSamples), each case shopping or booking another draw.
   */
  async function forMoney(
    t: CheckContext,
    level: SampleLevel,
    judge: (money: MoneyAt[], samples: Sample[]) => void,
  ): Promise<void> {
    const judgeSamples = (samples: Sample[]) => {
      const money = samples.flatMap((s) =>
        moneyNodes(s.schema, s.res.body).map((n) => ({ where: `${s.label}: ${n.path}`, value: n.value })),
      );
      if (money.length === 0) t.notApplicable(`no ${level} response carried a Money value`);
      judge(money, samples);
    };
    if (level !== 'catalog') return forSamples(t, level, judgeSamples);
    const fleet: Sample[] = [
      { label: 'GET /fleet', res: await sharedListingRead(t, '/fleet'), status: 200, schema: 'FleetList' },
    ];
    expectSamples(fleet);
    judgeSamples(fleet);
  }

  /**
   * Judges with `rule` every Money of the level's samples that carries `field`: a Money without it breaks 2.1.1
   * (all four required), judged there, not by each field's rule.
   */
  function eachMoney(
    t: CheckContext,
    level: SampleLevel,
    field: 'currency' | 'amount' | 'exponent' | 'display',
    rule: (m: Record<string, unknown>, where: string) => void,
  ): Promise<void> {
    return forMoney(t, level, (money) => {
      const judged = money.filter(({ value }) => Object.hasOwn(value as object, field));
      if (judged.length === 0) t.notApplicable(`no ${level} Money carried ${field}`);
      for (const { where, value } of judged) rule(value as Record<string, unknown>, where);
    });
  }

  for (const level of SAMPLE_LEVELS) {
    // Spec 2.1.1: "Required, all four fields"
    check('2.1.1')(
      {
        ...business,
        ...levelOptions(level),
        name: `Every Money has exactly currency, amount, exponent and display (${level} responses)`,
      },
      (t) =>
        forMoney(t, level, (money) => {
          for (const { where, value } of money) {
            expect(Object.keys(value as object).sort(), where).toEqual(['amount', 'currency', 'display', 'exponent']);
          }
        }),
    );
  }

  for (const level of SAMPLE_LEVELS) {
    // Spec 2.1.2: "currency | string | pattern `^[A-Z]{3}$`, ISO 4217"
    check('2.1.2')(
      {
        ...business,
        ...levelOptions(level),
        name: `Every Money.currency is an ISO 4217 code matching ^[A-Z]{3}$ (${level} responses)`,
      },
      (t) =>
        eachMoney(t, level, 'currency', (m, where) => {
          expect(m.currency, where).toMatch(/^[A-Z]{3}$/);
          expect(ISO_CURRENCIES.has(m.currency as string), `${where}: ${String(m.currency)} is an ISO 4217 code`).toBe(
            true,
          );
        }),
    );
  }

  for (const level of SAMPLE_LEVELS) {
    // Spec 2.1.3: "amount | integer | integer minor units, never decimal or float"
    check('2.1.3')(
      {
        ...business,
        ...levelOptions(level),
        name: `Every Money.amount is an integer of minor units (${level} responses)`,
      },
      (t) =>
        eachMoney(t, level, 'amount', (m, where) =>
          expect(Number.isInteger(m.amount), `${where}: amount ${String(m.amount)}`).toBe(true),
        ),
    );
  }

  for (const level of SAMPLE_LEVELS) {
    // Spec 2.1.4: "exponent | integer | 0 to 4; number of decimal places of the minor unit"
    check('2.1.4')(
      {
        ...business,
        ...levelOptions(level),
        name: `Every Money.exponent is an integer from 0 to 4 (${level} responses)`,
      },
      (t) =>
        eachMoney(t, level, 'exponent', (m, where) => {
          expect(Number.isInteger(m.exponent), `${where}: exponent ${String(m.exponent)}`).toBe(true);
          expect(m.exponent as number, where).toBeGreaterThanOrEqual(0);
          expect(m.exponent as number, where).toBeLessThanOrEqual(4);
        }),
    );
  }

  for (const level of SAMPLE_LEVELS) {
    // Spec 2.1.5: "display | string | rendering for humans only; never parsed as authoritative"
    check('2.1.5')(
      { ...business, ...levelOptions(level), name: `Every Money.display is a string (${level} responses)` },
      (t) => eachMoney(t, level, 'display', (m, where) => expect(typeof m.display, `${where}: display`).toBe('string')),
    );
  }

  // 2.1.3 never decimal or float: what the wire says before parsing
  for (const level of SAMPLE_LEVELS) {
    // Spec 2.1.3 (quoted above)
    check('2.1.3')(
      {
        ...business,
        ...levelOptions(level),
        name: `Amounts are integers on the wire: never 1.0 or 1e3 in JSON; in XML any 4.14 notation of an integer (${level})`,
      },
      (t) =>
        forMoney(t, level, (_money, samples) => {
          const written = samples.flatMap((s) =>
            amountLexemes(s.res).map((lexeme) => ({ where: `${s.label}: ${lexeme}`, lexeme, json: isJson(s) })),
          );
          expect(written.length, 'amounts found in the response text').toBeGreaterThan(0);
          expect(
            written.filter((w) => !integerLexeme(w.lexeme, w.json)).map((w) => w.where),
            'amounts not written as integers',
          ).toEqual([]);
        }),
    );
  }
});
