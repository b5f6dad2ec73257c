/**
 * k6 entry script: the booking-funnel scenario (load/scenarios/booking-funnel.ts) on k6 0.57 or later (TypeScript runs as is).
 *   k6 run -e TARGET_CONFIG=$PWD/target.json [-e RATE=… -e DURATION=… | -e LOAD_CI=1] [-e LOAD_OUT=result.json] load/k6/booking-funnel.ts
 */
import { bookingFunnelScenario } from '../scenarios/booking-funnel.ts';
import { k6Entry } from './runtime.ts';

const entry = k6Entry(bookingFunnelScenario);

export const options = entry.options;
export const setup = entry.setup;
export const run = entry.run;
export const teardown = entry.teardown;
export const handleSummary = entry.handleSummary;
