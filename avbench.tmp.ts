import { CATALOGUE } from './fixtures/index.ts';
import { Catalogue } from './reference-impl/domain/catalogue.ts';
import { QuoteTokens } from './reference-impl/domain/quote-tokens.ts';
import { Shopping } from './reference-impl/domain/shopping.ts';
import { FaultSwitch } from './reference-impl/faults/switch.ts';
import { FAULTS } from './reference-impl/faults/catalogue/index.ts';
import { DEFAULT_CONTROL_STATE, normalizeControlState } from './reference-impl/store/control-state.ts';
import { availabilityJson } from './reference-impl/http/availability-json.ts';
import { rentalWindow } from './load/scenario/partner-api.ts';
const faults = new FaultSwitch(FAULTS);
const shopping = new Shopping(new Catalogue(CATALOGUE), new QuoteTokens('a'.repeat(43), faults), faults);
const ctx = { partnerId: 'PARTNER-A', nowMs: Date.now(), control: normalizeControlState(DEFAULT_CONTROL_STATE) };
const req = rentalWindow(Date.now(), 60, 3) as any;
const quoteReq = { ...req, vehicleCode: 'TOYOTA-VIOS-AT' };
for (const [name, fn] of [
  ['availability', async () => shopping.availability(ctx, req)],
  ['availability+json', async () => availabilityJson(await shopping.availability(ctx, req))],
  ['availability+JSON.stringify', async () => JSON.stringify(await shopping.availability(ctx, req))],
  ['quote', async () => JSON.stringify(await shopping.quote(ctx, quoteReq))],
] as const) {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t = performance.now(); const n = 2000;
    for (let i = 0; i < n; i++) await fn();
    best = Math.min(best, ((performance.now() - t) * 1000) / n);
  }
  console.log(name, best.toFixed(1), 'µs');
}
