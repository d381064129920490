// The vscode-free Disposable / Emitter the run store and the host classes build on.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Disposable, DisposableStore, Emitter, disposeAll, toDisposable } from '../../../src/core/lifecycle';

test('an Emitter calls its listeners in order, with thisArgs, until they are disposed', () => {
  const e = new Emitter<number>();
  const got: string[] = [];
  const owner = { name: 'o' };
  const subs: { dispose(): void }[] = [];
  const a = e.event((n) => got.push(`a${n}`));
  e.event(function (this: typeof owner, n) { got.push(`${this.name}${n}`); }, owner, subs);
  e.fire(1);
  a.dispose();
  e.fire(2);
  assert.equal(subs.length, 1, 'the subscription was pushed into the disposables array');
  subs[0].dispose();
  e.fire(3);
  assert.deepEqual(got, ['a1', 'o1', 'o2']);
  assert.equal(e.hasListeners, false);
});

test('a throwing listener does not stop the others; its error goes to the error handler', () => {
  const errors: unknown[] = [];
  const e = new Emitter<string>((err) => errors.push(err));
  const got: string[] = [];
  e.event(() => { throw new Error('boom'); });
  e.event((s) => got.push(s));
  e.fire('x');
  assert.deepEqual(got, ['x']);
  assert.equal((errors[0] as Error).message, 'boom');
});

test('a disposed Emitter has no listeners and takes none', () => {
  const e = new Emitter<number>();
  let n = 0;
  e.event(() => n++);
  e.dispose();
  e.event(() => n++);
  e.fire(1);
  assert.equal(n, 0);
});

test('a DisposableStore disposes everything once; what is added after disposal is disposed at once', () => {
  const s = new DisposableStore();
  const log: string[] = [];
  s.add(toDisposable(() => log.push('a')));
  const b = s.add(toDisposable(() => log.push('b')));
  b.dispose();
  s.dispose();
  s.dispose();
  assert.deepEqual(log, ['b', 'a'], 'b once (its own dispose), a once');
  s.add(toDisposable(() => log.push('late')));
  assert.deepEqual(log, ['b', 'a', 'late']);
  assert.equal(s.isDisposed, true);
});

test('clear() disposes the items but keeps the store usable; an error is rethrown after every item ran', () => {
  const s = new DisposableStore();
  const log: string[] = [];
  s.add(toDisposable(() => { throw new Error('first'); }));
  s.add(toDisposable(() => log.push('second')));
  assert.throws(() => s.clear(), /first/);
  assert.deepEqual(log, ['second']);
  s.add(toDisposable(() => log.push('again')));
  s.clear();
  assert.deepEqual(log, ['second', 'again']);
  assert.equal(s.isDisposed, false);
});

test('a Disposable subclass disposes what it registered', () => {
  const log: string[] = [];
  class Owner extends Disposable {
    readonly changed = this.register(new Emitter<void>());
    constructor() { super(); this.register(toDisposable(() => log.push('sub'))); }
  }
  const o = new Owner();
  let fired = 0;
  o.changed.event(() => fired++);
  o.dispose();
  o.changed.fire();
  assert.deepEqual(log, ['sub']);
  assert.equal(fired, 0);
  assert.equal(o.isDisposed, true);
});

test('a subscription can be kept in a DisposableStore as well as in an array', () => {
  const e = new Emitter<number>();
  const store = new DisposableStore();
  let n = 0;
  e.event(() => n++, undefined, store);
  e.fire(1);
  store.dispose();
  e.fire(2);
  assert.equal(n, 1);
});

test('clear() forgets what it disposed: a second clear() or dispose() does not dispose it again', () => {
  const s = new DisposableStore();
  let n = 0;
  s.add({ dispose: () => { n++; } }); // a plain disposable, not guarded against a second call
  s.clear();
  s.clear();
  s.dispose();
  assert.equal(n, 1);
});

test('hasListeners is true while someone listens', () => {
  const e = new Emitter<number>();
  assert.equal(e.hasListeners, false);
  const d = e.event(() => undefined);
  assert.equal(e.hasListeners, true);
  d.dispose();
  assert.equal(e.hasListeners, false);
});

test('without an error handler, a listener\'s error goes to the console', () => {
  const logged: unknown[] = [];
  const e = new Emitter<number>();
  let after = 0;
  e.event(() => { throw new Error('listener failed'); });
  e.event(() => after++);
  const consoleError = console.error;
  console.error = (err: unknown) => { logged.push(err); };
  try {
    e.fire(1);
  } finally {
    console.error = consoleError;
  }
  assert.equal(logged.length, 1);
  assert.equal((logged[0] as Error).message, 'listener failed');
  assert.equal(after, 1);
});

test('a subscription taken by a disposed Emitter is a no-op disposable, not kept anywhere', () => {
  const e = new Emitter<number>();
  e.dispose();
  const subs: { dispose(): void }[] = [];
  const d = e.event(() => undefined, undefined, subs);
  assert.equal(subs.length, 0);
  d.dispose();
  assert.equal(e.hasListeners, false);
});

test('disposeAll rethrows the first error after trying every item; an error that is a falsy value is rethrown too', () => {
  const log: string[] = [];
  assert.throws(() => disposeAll([
    { dispose: () => { log.push('a'); throw new Error('one'); } },
    { dispose: () => { log.push('b'); throw new Error('two'); } },
    { dispose: () => { log.push('c'); } },
  ]), /one/);
  assert.deepEqual(log, ['a', 'b', 'c']);
  assert.throws(() => disposeAll([{ dispose: () => { throw 0; } }]), (e) => e === 0);
  disposeAll([]);
});
