// Runs the unit tests (written with `node:test`) inside mocha, for StrykerJS's in-process mocha runner only
// (stryker.config.mjs requires this file; `npm test` and CI run the tests with node:test as always).
//
// Why: one process that loads every test bundle once and re-runs only the tests covering each mutant (Stryker
// switches mutants at run time through its global `__stryker__.activeMutant`) instead of one Node process per test
// file per mutant. See docs/mutation-testing.md.
//
// How: `require('node:test')` from a test bundle returns an adapter that builds mocha suites: each bundle is one
// suite named by its path under out/test/unit, `describe` a nested suite, `test`/`it` a mocha test. Semantics kept:
//  - options `skip` / `todo` (the test is pending), `timeout` (ms; none by default, as node:test);
//  - the test context `t`: `name`, `skip()` / `todo()` (the test stops counting; node:test does not throw either),
//    `diagnostic()`, `after(fn)`, `signal`; subtests (`t.test`) are not used by the suite and throw;
//  - `before` hooks run once per process (their result is reused for every mutant; the code they run reports no
//    per-test coverage, so a mutant reached only there is a "static" mutant, see stryker.config.mjs), and `after`
//    hooks run when the process exits: the suites are re-run for every mutant and must keep their temp folders;
//  - `beforeEach` / `afterEach` are mocha's.
// The adapter is exercised by every mutation run: its dry run must pass every test, or Stryker stops.
'use strict';
const Module = require('node:module');
const path = require('node:path');
const Mocha = require('mocha');

const unitDir = path.join(process.cwd(), 'out', 'test', 'unit');
const exitHooks = [];
process.on('exit', () => {
  for (const fn of exitHooks.splice(0)) {
    try { fn(); } catch { /* a temp folder already gone */ }
  }
});

/** Code run outside any test (a `before` hook) reports no per-test coverage to Stryker. */
function outsideTests(fn) {
  const ns = globalThis.__stryker__;
  if (ns) ns.currentTestId = undefined;
  return fn();
}

function args(name, opts, fn) {
  if (typeof name === 'function') return { name: name.name || '<anonymous>', opts: {}, fn: name };
  if (typeof opts === 'function') return { name: String(name), opts: {}, fn: opts };
  return { name: String(name ?? '<anonymous>'), opts: opts ?? {}, fn };
}

function adapterFor(file) {
  const title = path.relative(unitDir, file).split(path.sep).join('/');
  let fileSuite;
  let current;
  // The bundle's own suite, created on first use while mocha loads the file (its `describe` global is set then).
  const suite = () => {
    if (!fileSuite) {
      if (typeof globalThis.describe !== 'function') throw new Error(`node:test adapter: ${title} is not being loaded by mocha`);
      globalThis.describe(title, function () { fileSuite = this; });
      current = fileSuite;
    }
    return current;
  };

  function runTest(name, fn, mochaCtx) {
    const afters = [];
    const ctx = {
      name,
      signal: new AbortController().signal,
      skip() {},
      todo() {},
      diagnostic() {},
      plan() {},
      after(f) { afters.push(f); },
      test() { throw new Error('node:test adapter: subtests (t.test) are not supported'); },
      mock: require('node:test').mock,
    };
    const body = fn.length >= 2
      ? new Promise((resolve, reject) => { fn(ctx, (err) => (err ? reject(err) : resolve())); })
      : Promise.resolve().then(() => fn(ctx));
    return body.finally(async () => { for (const f of afters) await f(); });
  }

  function test(...a) {
    const { name, opts, fn } = args(...a);
    const s = suite();
    const pending = !!(opts.skip || opts.todo) || typeof fn !== 'function';
    const t = new Mocha.Test(name, pending ? undefined : function () { return runTest(name, fn, this); });
    t.file = file;
    s.addTest(t);
    t.timeout(typeof opts.timeout === 'number' && Number.isFinite(opts.timeout) ? opts.timeout : 0);
    return Promise.resolve();
  }
  test.skip = (name, opts, fn) => test(name, { ...(typeof opts === 'object' ? opts : {}), skip: true }, fn);
  test.todo = (name, opts, fn) => test(name, { ...(typeof opts === 'object' ? opts : {}), todo: true }, fn);
  test.only = test;

  function describe(...a) {
    const { name, opts, fn } = args(...a);
    const parent = suite();
    const child = Mocha.Suite.create(parent, name);
    child.file = file;
    if (opts.skip || opts.todo) child.pending = true;
    current = child;
    try {
      if (typeof fn === 'function') fn();
    } finally {
      current = parent;
    }
    return Promise.resolve();
  }
  describe.skip = (name, opts, fn) => describe(name, { ...(typeof opts === 'object' ? opts : {}), skip: true }, fn);
  describe.todo = describe.skip;
  describe.only = describe;

  function before(fn) {
    let once;
    suite().beforeAll(function () { return (once ??= Promise.resolve().then(() => outsideTests(fn))); });
  }
  function after(fn) { exitHooks.push(fn); }
  function beforeEach(fn) { suite().beforeEach(function () { return fn(); }); }
  function afterEach(fn) { suite().afterEach(function () { return fn(); }); }

  return {
    test, it: test, describe, suite: describe, before, after, beforeEach, afterEach,
    mock: require('node:test').mock,
    default: test,
  };
}

const adapters = new Map();
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'node:test' && parent?.filename?.startsWith(unitDir + path.sep)) {
    let a = adapters.get(parent.filename);
    if (!a) adapters.set(parent.filename, (a = adapterFor(parent.filename)));
    return a;
  }
  return load.call(this, request, parent, isMain);
};

// A test that spawns the CLI (out/cli.js, mutated alike) runs the active mutant in the child too: Stryker's
// instrumented code reads it from this variable when no mutant is set in its own process.
exports.mochaHooks = {
  beforeEach() {
    const active = globalThis.__stryker__?.activeMutant;
    process.env.__STRYKER_ACTIVE_MUTANT__ = active === undefined ? '' : String(active);
  },
};
