/**
 * Runs `fn` over the items, at most `jobs` at a time, the results in item order. Once `signal` aborts no item is
 * started, and a result that comes after the abort is left out (in the mutation matrix, a certification stopped
 * midway judged nothing, so it is neither a catch nor a miss). A few lines: not worth a dependency (p-map).
 */
export async function mapAtMost<T, R>(
  items: readonly T[],
  jobs: number,
  fn: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results: (R | undefined)[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      const result = await fn(items[index] as T);
      if (!signal?.aborted) results[index] = result;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results.filter((r): r is R => r !== undefined);
}
