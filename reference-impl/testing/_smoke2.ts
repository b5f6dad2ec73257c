import { openStore } from '../store/index.ts';
import { Reservations } from '../domain/reservations.ts';
import { Shopping } from '../domain/shopping.ts';
import { QuoteTokens } from '../domain/quote-tokens.ts';
import { Catalogue } from '../domain/catalogue.ts';
import { CATALOGUE } from '../../fixtures/index.ts';
import { quoteRequest, reservationBody } from './booking-helpers.ts';
const store = await openStore(':memory:');
const qt = new QuoteTokens('aGVsbG9oZWxsb2hlbGxvaGVsbG9oZWxsb2hlbGxvaGU');
const shopping = new Shopping(new Catalogue(CATALOGUE), qt);
const res = new Reservations(store, shopping, qt);
const ctx = { partnerId: 'PARTNER-A', nowMs: Date.now(), control: await store.getControlState() };
const q = await shopping.quote(ctx, quoteRequest());
try { console.log(await res.create(ctx, 'abcdefghij', reservationBody(q.quoteId))); } catch (e) { console.error(e); }
