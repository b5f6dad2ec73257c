/**
 * k6 entry script: the client-isolation scenario (load/scenarios/client-isolation.ts) on k6 0.57 or later (TypeScript runs as is).
 *   k6 run -e TARGET_CONFIG=$PWD/target.json [-e RATE=… -e DURATION=… | -e LOAD_CI=1] [-e LOAD_OUT=result.json] load/k6/client-isolation.ts
 */
import { clientIsolationScenario } from '../scenarios/client-isolation.ts';
import { k6Entry } from './runtime.ts';

const entry = k6Entry(clientIsolationScenario);

export const options = entry.options;
export const setup = entry.setup;
export const run = entry.run;
export const teardown = entry.teardown;
export const handleSummary = entry.handleSummary;
