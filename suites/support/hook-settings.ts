/**
 * A test hook's setting held for the length of one step (docs/test-hooks.md): on where the target offers the hook,
 * set back after the step, also when it throws, so no later check meets it. Without the hook the step runs against the
 * target as it is: each hook only makes a state cheaper or surer to reach, never what the check judges.
 */
import type { HookName } from '../../contract/hooks/names.ts';
import type { CheckContext } from '../../harness/check/check.ts';
import type { TestHooks } from '../../harness/hooks/adapter.ts';

export async function whileHookSet<T>(
  t: CheckContext,
  hook: HookName,
  set: (hooks: TestHooks, on: boolean) => Promise<void>,
  step: () => Promise<T>,
): Promise<T> {
  const hooks = t.hookIfOffered(hook);
  if (!hooks) return step();
  await set(hooks, true);
  try {
    return await step();
  } finally {
    await set(hooks, false);
  }
}
