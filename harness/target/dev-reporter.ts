import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** A development aid: one line per check with the outcome the check wrapper recorded (pass, warn, n/a …). */
export default class DevReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = new Map<string, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const outcome = outcomeOf(test);
        counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
        if (outcome !== 'pass') {
          const meta = test.meta().check;
          const detail = meta?.notApplicable?.detail ?? meta?.evidence?.message?.split('\n')[0] ?? '';
          process.stdout.write(`${outcome.padEnd(14)} ${test.name}  ${detail}\n`);
        }
      }
    }
    process.stdout.write(`${[...counts].map(([k, v]) => `${k}: ${v}`).join(', ')}\n`);
  }
}

function outcomeOf(test: TestCase): string {
  return test.meta().check?.outcome ?? `vitest-${test.result().state}`;
}
