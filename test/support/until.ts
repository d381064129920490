// Polling until a condition holds, for tests of every layer (integration in the extension host, unit, UI scripts).

export interface UntilOptions { timeout?: number; interval?: number; message?: string }

/** Polls `fn` until it returns a truthy value (which it returns) or throws after `timeout` ms. */
export async function until<T>(fn: () => T | Promise<T>, opts: UntilOptions = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeout ?? 10_000);
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`${opts.message ?? 'condition not met'} within ${opts.timeout ?? 10_000} ms${why}`);
    }
    await new Promise((r) => setTimeout(r, opts.interval ?? 100));
  }
}
