// Disposables and events without `vscode`, so the run store and the pure view logic run under plain Node too.
// Shaped like VS Code's own (`Event<T>` is callable as `event(listener, thisArgs?, disposables?)`), so an Emitter's
// event can be handed wherever VS Code expects a `vscode.Event`, and a `Disposable` wherever it expects one.

export interface IDisposable {
  dispose(): void;
}

/** A disposable that runs `fn` once. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return { dispose: () => { if (!done) { done = true; fn(); } } };
}

/** Disposes every item; the first error is rethrown after all were tried. */
export function disposeAll(items: Iterable<IDisposable>): void {
  let first: unknown;
  for (const d of items) {
    try { d.dispose(); } catch (e) { first ??= e; }
  }
  if (first !== undefined) throw first;
}

/** A set of disposables that are disposed together (later additions to a disposed store are disposed at once). */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposedValue = false;

  get isDisposed(): boolean {
    return this.disposedValue;
  }

  add<T extends IDisposable>(d: T): T {
    if (this.disposedValue) d.dispose();
    else this.items.add(d);
    return d;
  }

  /** Disposes and forgets what the store holds; the store can be used again. */
  clear(): void {
    const items = [...this.items];
    this.items.clear();
    disposeAll(items);
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    this.clear();
  }
}

/** Base class of everything that owns disposables: `this.register(x)` ties x's life to this object's. */
export abstract class Disposable implements IDisposable {
  private readonly toDispose = new DisposableStore();

  protected register<T extends IDisposable>(d: T): T {
    return this.toDispose.add(d);
  }

  get isDisposed(): boolean {
    return this.toDispose.isDisposed;
  }

  dispose(): void {
    this.toDispose.dispose();
  }
}

/** Where a subscription is kept: an array (VS Code's API) or a store. */
export type DisposableSink = IDisposable[] | { add(d: IDisposable): unknown };

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: DisposableSink) => IDisposable;

/**
 * An event source: `emitter.event` is what subscribers call, `fire` tells them. A listener that throws does not stop
 * the others; its error goes to `onListenerError` (the console when not given).
 */
export class Emitter<T> implements IDisposable {
  private readonly listeners = new Set<{ fn: (e: T) => unknown; thisArgs: unknown }>();
  private disposed = false;

  constructor(private readonly onListenerError: (error: unknown) => void = (e) => console.error(e)) {}

  readonly event: Event<T> = (fn, thisArgs, disposables) => {
    if (this.disposed) return toDisposable(() => undefined);
    const entry = { fn, thisArgs };
    this.listeners.add(entry);
    const d = toDisposable(() => this.listeners.delete(entry));
    if (Array.isArray(disposables)) disposables.push(d);
    else disposables?.add(d);
    return d;
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try { l.fn.call(l.thisArgs, e); } catch (err) { this.onListenerError(err); }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}
