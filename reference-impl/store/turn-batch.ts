/**
 * Items handed in during one turn of the event loop, run together by one call: the PostgreSQL store's group commit
 * (one statement, so one transaction and one WAL flush, for every booking of the turn). Each item's promise settles
 * with its own result, or with the call's error when the call fails as a whole.
 *
 * Written here rather than taken from a library (dataloader and the like batch per tick too) because those cache
 * results by key and coalesce equal keys: two claims of one idempotency key must stay two items.
 */
export class TurnBatch<I, O> {
  private items: I[] = [];
  private waiters: { resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private running = 0;

  /**
   * @param run answers the items in their order (one result per item)
   * @param maxItems a turn with more items runs them in several calls of at most this many
   * @param maxRunning calls at once: items that arrive while this many run wait, and go together in the call that
   *   starts when one ends (the group commit of a database: the next group forms while the last one commits)
   */
  constructor(
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly maxItems = 100,
    private readonly maxRunning = Number.POSITIVE_INFINITY,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.items.push(item);
      this.waiters.push({ resolve, reject });
      if (this.running >= this.maxRunning) return;
      if (this.items.length >= this.maxItems) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    if (this.items.length === 0 || this.running >= this.maxRunning) return;
    const items = this.items.splice(0, this.maxItems);
    const waiters = this.waiters.splice(0, this.maxItems);
    this.running += 1;
    let call: Promise<readonly O[]>;
    try {
      call = this.run(items);
    } catch (error) {
      call = Promise.reject(error);
    }
    call
      .finally(() => {
        this.running -= 1;
        this.flush();
      })
      .then(
        (results) => {
          if (results.length !== items.length) {
            const error = new Error(`batch answered ${results.length} results for ${items.length} items`);
            for (const waiter of waiters) waiter.reject(error);
            return;
          }
          for (const [i, waiter] of waiters.entries()) waiter.resolve(results[i] as O);
        },
        (error: unknown) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      );
  }
}
