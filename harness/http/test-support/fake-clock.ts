/** A virtual clock for the pacing and rate-limit tests: sleeping moves it, so waits are observable without waiting. */
export function fakeClock(start = 1_000_000) {
  let now = start;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    slept,
  };
}
