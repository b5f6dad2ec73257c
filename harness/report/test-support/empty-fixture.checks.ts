import { describe } from 'vitest';

// A suite file whose checks --only did not select: it registers none, and progress must not list it.
describe('4.14 XML representation', () => {});
