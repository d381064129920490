// The extension's model holder under plain Node: lazy load through the core, a deleted verifier folder turns into a
// flag after a (debounced) change, a new run in the folder appears, the run's own files do not trigger rediscovery.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { RunStore, type StoreChange } from '../../../src/views/runStore';
import { generateNemoRun, nemoEveryCase } from '../../../scripts/sample-runs/nemoGym';
import { generateHarborJob } from '../../../scripts/sample-runs/harborJob';
import { harborEveryCase } from '../../../scripts/sample-runs/harborSpec';
import { runSummaryPathFor, writeRunSummary } from '../../../src/core/summary';
import { runFromWrittenSummary } from '../../../src/core/readers/runSummary';
import { readHarborJob } from '../../../src/core/readers/harborJob';

async function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-store-')).split(path.sep).join('/');
  const gen = await generateNemoRun(path.join(root, 'tb-mini'), nemoEveryCase());
  const changes: StoreChange[] = [];
  const store = new RunStore({
    fs: new NodeFs(), folders: () => [{ path: root, name: 'ws' }], filters: () => ({ include: [], exclude: [] }), debounceMs: 20, maxWaitMs: 100,
  });
  store.onDidChange((e) => changes.push(e));
  return { root, gen, store, changes, done: () => { store.dispose(); fs.rmSync(root, { recursive: true, force: true }); } };
}

test('loads lazily, once; a deleted verifier folder becomes missing evidence after the change settles', async () => {
  const { store, changes, done } = await setup();
  try {
    assert.equal(store.isLoaded, false);
    assert.deepEqual(store.runs(), []);
    await Promise.all([store.ensureLoaded(), store.ensureLoaded()]);
    assert.equal(store.isLoaded, true);
    // The first load says when its runs are known, as they come in, and when all are read.
    assert.ok(changes.length >= 2, `changes: ${changes.length}`);
    const run = store.runs().find((r) => r.kind === 'nemo-gym');
    assert.ok(run, 'the NeMo run was found');
    const attempt = run.tasks.flatMap((t) => t.attempts).find((a) => a.dir && fs.existsSync(a.dir) && a.missing.length === 0);
    assert.ok(attempt?.dir, 'an attempt with a verifier folder on disk');
    fs.rmSync(attempt.dir, { recursive: true });
    store.notePathsChanged([attempt.dir, `${path.dirname(attempt.dir)}/.x.123.abc.tmp`]);
    await store.whenIdle();
    const after = store.get(run.id);
    assert.ok(after && after !== run, 'the run was re-read');
    const again = after.tasks.flatMap((t) => t.attempts).find((a) => a.id === attempt.id);
    assert.ok(again && again.missing.includes(attempt.dir), `the folder is flagged missing: ${JSON.stringify(again?.missing)}`);
    assert.deepEqual(changes.at(-1), { runIds: [run.id] }, 'only that run changed');
  } finally {
    done();
  }
});

test('a new run written into the folder appears; a vanished one goes', async () => {
  const { root, store, done } = await setup();
  try {
    await store.ensureLoaded();
    const before = store.runs().length;
    const second = await generateNemoRun(path.join(root, 'second'), { ...nemoEveryCase(), stem: 'other' });
    store.notePathsChanged([second.rolloutsPath]);
    await store.whenIdle();
    assert.equal(store.runs().length, before + 1);
    assert.ok(store.runForFile(second.rolloutsPath), 'the new run is known by its rollouts file');
    fs.rmSync(path.join(root, 'second'), { recursive: true });
    store.notePathsChanged([path.join(root, 'second')]);
    await store.whenIdle();
    assert.equal(store.runs().length, before);
  } finally {
    done();
  }
});

test('a watched job that finishes fires one completion (running → complete)', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-store-job-')).split(path.sep).join('/');
  const store = new RunStore({ fs: new NodeFs(), folders: () => [{ path: root, name: 'ws' }], filters: () => ({ include: [], exclude: [] }), debounceMs: 20 });
  try {
    const job = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
    await store.ensureLoaded();
    const run = store.runs().find((r) => r.kind === 'harbor-job');
    assert.equal(run?.state, 'running', 'the example job is still running');
    const completions: string[] = [];
    store.onRunCompleted((e) => completions.push(`${e.from}→${e.run.state}`));
    const resultPath = path.join(job.jobDir, 'result.json');
    const result = JSON.parse(fs.readFileSync(resultPath, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(resultPath, JSON.stringify({ ...result, finished_at: '2026-08-21T15:00:00' }));
    store.notePathsChanged([resultPath]);
    await store.whenIdle();
    assert.deepEqual(completions, ['running→complete']);
    store.notePathsChanged([resultPath]);
    await store.whenIdle();
    assert.deepEqual(completions, ['running→complete'], 'not twice');
  } finally {
    store.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a change inside one trial folder of a job re-reads that trial only, and the run is the one a full read gives', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-store-trial-')).split(path.sep).join('/');
  const logs: string[] = [];
  const store = new RunStore({ fs: new NodeFs(), folders: () => [{ path: root, name: 'ws' }], filters: () => ({ include: [], exclude: [] }),
    debounceMs: 20, log: (_l, m) => logs.push(m) });
  const fresh = async () => (await readHarborJob(new NodeFs(), store.runs().find((r) => r.kind === 'harbor-job')!.root));
  const settle = async (changed: string[]) => { logs.length = 0; store.notePathsChanged(changed); await store.whenIdle(); };
  try {
    const job = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
    await store.ensureLoaded();
    const trials = fs.readdirSync(job.jobDir).filter((n) => fs.existsSync(path.join(job.jobDir, n, 'result.json'))).sort();
    const jobRun = () => store.runs().find((r) => r.kind === 'harbor-job')!;
    const attempts = () => jobRun().tasks.reduce((n, t) => n + t.attempts.length, 0);
    const before = attempts();

    // One trial's reward changes: only that trial is read, and the run equals a whole read of the job.
    const runBefore = structuredClone(jobRun());
    const resultPath = path.join(job.jobDir, trials[0], 'result.json');
    const result = JSON.parse(fs.readFileSync(resultPath, 'utf8')) as { verifier_result?: { rewards?: Record<string, number> } };
    result.verifier_result = { rewards: { reward: 0.25 } };
    fs.writeFileSync(resultPath, JSON.stringify(result));
    await settle([resultPath.split(path.sep).join('/')]);
    assert.ok(logs.some((m) => /^re-read 1 trial folder\(s\) of .* \(1 attempts\)/.test(m)), logs.join('\n'));
    assert.deepEqual(jobRun(), await fresh());
    assert.notDeepEqual(jobRun(), runBefore, 'the change is seen');

    // A trial folder deleted: its attempt goes, nothing else is read.
    fs.rmSync(path.join(job.jobDir, trials[1]), { recursive: true });
    await settle([path.join(job.jobDir, trials[1]).split(path.sep).join('/')]);
    assert.ok(logs.some((m) => /^re-read 1 trial folder\(s\) of .* \(0 attempts\)/.test(m)), logs.join('\n'));
    assert.equal(attempts(), before - 1);
    assert.deepEqual(jobRun(), await fresh());

    // The job's own result.json: the whole job is read again.
    const jobResult = path.join(job.jobDir, 'result.json');
    fs.writeFileSync(jobResult, fs.readFileSync(jobResult));
    await settle([jobResult.split(path.sep).join('/')]);
    assert.ok(logs.some((m) => /^re-read \/.* in \d+ ms \(\d+ attempts\)/.test(m)), logs.join('\n'));
    assert.deepEqual(jobRun(), await fresh());
  } finally {
    store.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('Write Run Summary: the written run replaces the virtual one without a second read, and its own write event re-reads nothing', async () => {
  const { gen, store, done } = await setup();
  try {
    const rollouts = gen.rolloutsPath.split(path.sep).join('/');
    const summary = runSummaryPathFor(rollouts);
    fs.rmSync(summary, { force: true });
    await store.ensureLoaded();
    const virtual = store.runForFile(rollouts);
    assert.ok(virtual?.summaryIsVirtual, 'without a summary the run is read from its rollouts');
    const nodeFs = new NodeFs();
    const result = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
    assert.ok(result.document && result.bytes, result.error);
    // The write's watcher event comes before the written run is put (building it takes seconds on a big run).
    store.noteOwnWrite(result.path);
    store.notePathsChanged([summary]);
    await store.whenIdle();
    assert.equal(store.runForFile(rollouts), virtual, 'the write event before the run is put re-reads nothing');
    const run = await runFromWrittenSummary(nodeFs, { path: result.path, document: result.document, bytes: result.bytes!, problems: result.problems }, rollouts);
    const put = await store.putWrittenRun(run, result.path, rollouts);
    assert.equal(put, run);
    assert.equal(store.runForFile(summary), run, 'the store shows the written run');
    assert.equal(store.runs().filter((r) => r.rolloutsPath === rollouts).length, 1, 'the virtual run is gone');
    assert.ok(!run.summaryIsVirtual, 'the run is read from its summary');
    for (let i = 0; i < 2; i++) {
      store.notePathsChanged([summary]);
      await store.whenIdle();
      assert.equal(store.runForFile(summary), run, 'the write events of the summary itself are not re-read');
    }
    // A later real change of the summary is.
    fs.appendFileSync(summary, '\n');
    fs.utimesSync(summary, new Date(), new Date(Date.now() + 5000));
    store.notePathsChanged([summary]);
    await store.whenIdle();
    assert.notEqual(store.runForFile(summary), run, 'a change after the write is re-read');
    // A run the store never listed is not put (the caller re-discovers).
    assert.equal(await store.putWrittenRun(run, '/elsewhere/x_run_summary.json', '/elsewhere/x.jsonl'), undefined);
  } finally {
    done();
  }
});

test('first load: every run is known once discovered; each run is shown as soon as it is read, the slow one as pending', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-store-')).split(path.sep).join('/');
  try {
    await generateNemoRun(path.join(root, 'fast'), nemoEveryCase());
    await generateNemoRun(path.join(root, 'slow'), { ...nemoEveryCase(), stem: 'other' });
    const slowDir = `${root}/slow`;
    let open!: () => void;
    const gate = new Promise<void>((r) => { open = r; });
    const base = new NodeFs();
    // Reads of the slow run wait for the gate (not discovery's: its listings, stats and the quality summary it asks).
    const slowFs = new Proxy(base, {
      get(target, key, recv) {
        const v = Reflect.get(target, key, recv);
        if (typeof v !== 'function' || key === 'listDir' || key === 'readDir' || key === 'realpath') return v;
        return async (...args: unknown[]) => {
          const a = JSON.stringify(args);
          if (a.includes(`${slowDir}/`) && key !== 'stat' && !a.includes('quality_summary.json')) await gate;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const store = new RunStore({ fs: slowFs, folders: () => [{ path: root, name: 'ws' }], filters: () => ({ include: [], exclude: [] }), debounceMs: 20 });
    try {
      await store.whenDiscovered();
      assert.equal(store.isLoaded, false);
      const pendingAnchors = () => store.pendingRuns().map((p) => p.candidate.anchor);
      assert.ok(pendingAnchors().some((a) => a.startsWith(`${slowDir}/`)), `the slow run is pending: ${pendingAnchors().join(', ')}`);
      // The fast run is read and shown while the slow one waits.
      for (let i = 0; i < 200 && !store.runs().some((r) => r.root.startsWith(`${root}/fast`)); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(store.runs().some((r) => r.root.startsWith(`${root}/fast`)), 'the fast run is in before the slow one is read');
      assert.ok(!store.runs().some((r) => r.root.startsWith(slowDir)), 'the slow run is not in yet');
      open();
      await store.ensureLoaded();
      assert.equal(store.isLoaded, true);
      assert.deepEqual(store.pendingRuns(), []);
      assert.ok(store.runs().some((r) => r.root.startsWith(slowDir)), 'the slow run is in once read');
    } finally {
      open();
      store.dispose();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('first load: a Harbor job being read tells how far it is (its trial folders read of all) while pending', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-store-progress-')).split(path.sep).join('/');
  const job = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
  const store = new RunStore({ fs: new NodeFs(), folders: () => [{ path: root, name: 'ws' }], filters: () => ({ include: [], exclude: [] }) });
  const told: { anchor: string; done: number; total: number }[] = [];
  store.onDidProgress(() => {
    for (const p of store.pendingRuns()) if (p.progress) told.push({ anchor: p.candidate.anchor, ...p.progress });
  });
  try {
    await store.ensureLoaded();
    const trials = fs.readdirSync(job.jobDir, { withFileTypes: true }).filter((d) => d.isDirectory()).length;
    assert.ok(told.length >= 1, 'told at least once (the first batch at once)');
    assert.deepEqual(told.at(-1), { anchor: job.jobDir.split(path.sep).join('/'), done: trials, total: trials });
    assert.deepEqual(store.pendingRuns(), [], 'nothing pending once read');
    assert.equal(store.runs().length, 1);
  } finally {
    store.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
