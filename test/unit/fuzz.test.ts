// Fuzz tests of every parser in src/core with fast-check: random and mutated inputs (truncated, bytes flipped,
// garbage or duplicated lines, values of the wrong type, files emptied or deleted) never throw out of a reader,
// and every Problem names its file and, for line-based formats, the line. Inputs are generated runs
// (scripts/sample-runs) held in memory (MemFs), so each case is cheap. FUZZ_RUNS=<n> runs more cases; the cases
// are the same on every run (FUZZ_SEED, default fixed, so CI does not depend on the clock): FUZZ_SEED=<n> explores others.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import type { Problem } from '../../src/core/model';
import { readJsonl } from '../../src/core/jsonl';
import { readRunSummary, readNemoRollouts } from '../../src/core/readers/runSummary';
import { readHarborJob } from '../../src/core/readers/harborJob';
import { readViewerDataset, readViewerProject, readViewerTrainingRun } from '../../src/core/readers/viewerData';
import { readVerdicts } from '../../src/core/readers/nemo/verdicts';
import { buildRunSummary, serializeSummary, parseSignatures, writeRunSummary } from '../../src/core/summary';
import { discoverRuns } from '../../src/core/discovery';
import { generateNemoRun, nemoEveryCase, NEMO_T0 } from '../../scripts/sample-runs/nemoGym';
import { generateHarborJob, harborEveryCase } from '../../scripts/sample-runs/harborJob';
import { generateViewerData, viewerEveryCase } from '../../scripts/sample-runs/viewerData';
import { MemFs } from '../../scripts/sample-runs/memFs';
import { MUTATIONS, applyMutation, type Mutation } from '../../scripts/sample-runs/mutate';
import { duplicateKey } from '../../src/core/honestInput';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED ?? 20260822) });
const SEVERITIES = new Set(['error', 'warning', 'info']);
/** Codes that are about one line of a line-based file: they must carry the line. */
const LINE_CODES = new Set(['parse-error', 'not-object', 'incomplete-tail']);

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATIONS),
  a: fc.nat(),
  b: fc.nat(),
  junk: fc.oneof(fc.string(), fc.constantFrom('{"reward": ', 'not json', '{"_ng_task_index": "0", "reward": "1"}', '[]', 'null', '{"step": -1}')),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, '', [], {}, 1e308, 'NaN')),
});

/** Every problem is well formed, names a file (inside `under` when given) and, when about a line, the line. */
function checkProblems(problems: Problem[], under?: string): void {
  for (const p of problems) {
    assert.equal(typeof p.file, 'string', JSON.stringify(p));
    assert.ok(p.file.length > 0, JSON.stringify(p));
    if (under) assert.ok(p.file.startsWith(under), `${p.file} is outside ${under}`);
    assert.ok(SEVERITIES.has(p.severity), JSON.stringify(p));
    assert.equal(typeof p.message, 'string');
    if (p.line !== undefined) assert.ok(Number.isInteger(p.line) && p.line >= 1, JSON.stringify(p));
    if (LINE_CODES.has(p.code) && p.file.endsWith('.jsonl')) assert.ok(p.line !== undefined, JSON.stringify(p));
  }
}

const enc = new TextEncoder();
const dec = new TextDecoder();

// ------------------------------------------------------------------ readJsonl against a reference model

/** What readJsonl should report for `bytes`: rows and (line, code) of each problem. */
function jsonlReference(bytes: Uint8Array): { rows: number; problems: string[]; incompleteTail: boolean } {
  const out = { rows: 0, problems: [] as string[], incompleteTail: false };
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    let nl = bytes.indexOf(10, start);
    const terminated = nl >= 0;
    if (!terminated) nl = bytes.length;
    let lb = bytes.subarray(start, nl);
    if (lb.length && lb[lb.length - 1] === 13) lb = lb.subarray(0, lb.length - 1);
    line++;
    start = nl + 1;
    // Honest inputs (docs/untrusted-runs.md#honest-inputs): a BOM on line 1, bytes that are not UTF-8, a key given
    // twice, numbers beyond a double are said.
    if (line === 1 && lb[0] === 0xef && lb[1] === 0xbb && lb[2] === 0xbf) { lb = lb.subarray(3); out.problems.push('1:bom'); }
    if (lb.every((b) => b === 32 || b === 9 || b === 13)) continue;
    try { new TextDecoder('utf-8', { fatal: true }).decode(lb); } catch { out.problems.push(`${line}:invalid-utf8`); }
    let v: unknown;
    const text = dec.decode(lb);
    try { v = JSON.parse(text); } catch {
      if (terminated) out.problems.push(`${line}:parse-error`);
      else { out.problems.push(`${line}:incomplete-tail`); out.incompleteTail = true; }
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) { out.problems.push(`${line}:not-object`); continue; }
    if (duplicateKey(text)) out.problems.push(`${line}:duplicate-key`);
    let infinite = 0;
    const walk = (x: unknown): void => {
      if (typeof x === 'number' && !Number.isFinite(x)) infinite++;
      else if (x && typeof x === 'object') for (const y of Object.values(x)) walk(y);
    };
    walk(v);
    for (let i = 0; i < Math.min(infinite, 5); i++) out.problems.push(`${line}:number-out-of-range`);
    out.rows++;
  }
  return out;
}

const jsonlLine = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 })).map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '   ', '{"a": 1}\r', '{"a":', '\u00e9\u{1F600}'),
);

test('readJsonl: random lines and random bytes, any chunk size, match the reference model', async () => {
  const input = fc.oneof(
    fc.record({ lines: fc.array(jsonlLine, { maxLength: 40 }), endNl: fc.boolean() })
      .map(({ lines, endNl }) => enc.encode(lines.map((l) => l.replace(/\n/g, ' ')).join('\n') + (endNl && lines.length ? '\n' : ''))),
    fc.uint8Array({ maxLength: 300 }),
  );
  await fc.assert(fc.asyncProperty(input, fc.integer({ min: 1, max: 64 }), async (bytes, chunk) => {
    const m = new MemFs();
    m.put('/data/x.jsonl', bytes);
    let seen = 0;
    const res = await readJsonl(m, '/data/x.jsonl', () => { seen++; }, { chunkSize: chunk });
    const ref = jsonlReference(bytes);
    checkProblems(res.problems, '/data/x.jsonl');
    assert.equal(seen, ref.rows);
    assert.equal(res.rows, ref.rows);
    assert.deepEqual(res.problems.map((p) => `${p.line}:${p.code}`), ref.problems.slice(0, 200));
    assert.equal(res.incompleteTail, ref.incompleteTail);
  }), { numRuns: RUNS * 5 });
});

test('readJsonl: a file that is missing or a folder is one Problem, not a throw', async () => {
  const m = new MemFs();
  m.put('/d/inner/file.txt', 'x');
  for (const p of ['/nope.jsonl', '/d/inner']) {
    const res = await readJsonl(m, p, () => undefined);
    assert.equal(res.rows, 0);
    checkProblems(res.problems);
  }
});

// ------------------------------------------------------------------ generated runs, held in memory

// The generated runs are written once, read into memory, and the folders removed after the file's tests.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-fuzz-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const tmp = () => fs.mkdtempSync(path.join(tmpRoot, 'run-'));
let nemoFs: MemFs, nemoRollouts: string, nemoSummary: string, nemoFiles: string[];
let harborFs: MemFs, harborJob: string, harborFiles: string[];
let viewerFs: MemFs, viewerProject: string, viewerFiles: string[];

before(async () => {
  const nd = tmp();
  const r = await generateNemoRun(nd, { ...nemoEveryCase(), originalRoot: '/home/dev/gym/results/harbor/tb-mini' });
  nemoFs = MemFs.fromDisk(nd);
  nemoRollouts = r.rolloutsPath;
  const built = await buildRunSummary(nemoFs, nemoRollouts, { skipped: r.skipped });
  nemoSummary = path.join(nd, 'rollouts_run_summary.json');
  // Written after the health reports (T0+5), as `gym eval run` leaves it: a fixed time, not the clock's.
  nemoFs.put(nemoSummary, serializeSummary(built.document), (NEMO_T0 + 6) * 1000);
  nemoFiles = [...nemoFs.files.keys()].sort();
  const hd = tmp();
  const j = await generateHarborJob(hd, harborEveryCase());
  harborFs = MemFs.fromDisk(hd);
  harborJob = j.jobDir;
  harborFiles = [...harborFs.files.keys()].sort();
  const vd = tmp();
  const v = await generateViewerData(vd, viewerEveryCase());
  viewerFs = MemFs.fromDisk(vd);
  viewerProject = v.projectDir;
  viewerFiles = [...viewerFs.files.keys()].sort();
});

/** Mutates one of `files` (by index) in a copy of `base`; returns the copy, the file and what was done. */
function mutated(base: MemFs, files: string[], pick: number, m: Mutation) {
  const copy = base.clone();
  const file = files[pick % files.length];
  const applied = applyMutation(copy, file, m);
  return { fs: copy, file, applied };
}

function expectLineProblem(problems: Problem[], file: string, line: number | undefined): void {
  if (line === undefined) return;
  assert.ok(problems.some((p) => p.file === file && p.line === line),
    `no problem names ${path.basename(file)} line ${line}: ${JSON.stringify(problems.map((p) => [path.basename(p.file), p.line, p.code]))}`);
}

const caseArb = fc.tuple(fc.nat(), mutationArb);

test('a mutated clone never changes the run it was cloned from, nor does changing the bytes a read returned', async () => {
  const bases: [MemFs, string[]][] = [[nemoFs, nemoFiles], [harborFs, harborFiles], [viewerFs, viewerFiles]];
  const copyOf = (m: MemFs) => new Map([...m.files].map(([p, e]) => [p, Buffer.from(e.data)]));
  const before = bases.map(([m]) => copyOf(m));
  const unchanged = (i: number, file: string) =>
    assert.ok(Buffer.from(bases[i][0].files.get(file)!.data).equals(before[i].get(file)!), `the base's ${file} changed`);
  // Every kind of mutation on every file of every base, then random ones.
  bases.forEach(([base, files], i) => {
    for (const kind of MUTATIONS) {
      files.forEach((_, pick) => unchanged(i, mutated(base, files, pick, { kind, a: 3 + pick, b: 5, junk: 'x', value: 1 }).file));
    }
  });
  fc.assert(fc.property(fc.nat(2), caseArb, (i, [pick, m]) => unchanged(i, mutated(bases[i][0], bases[i][1], pick, m).file)), { numRuns: RUNS });
  // A reader that scribbles on what it read (NodeFs hands out fresh buffers too) leaves the file as it was.
  const [file] = viewerFiles;
  (await viewerFs.readFile(file)).fill(0);
  for await (const chunk of viewerFs.readChunks(file, 7)) chunk.fill(0);
  unchanged(2, file);
  bases.forEach(([m], i) => assert.deepEqual(copyOf(m), before[i]));
});

test('readNemoRollouts and writeRunSummary (no summary yet): mutated run files never throw; a garbage rollouts line is named', async () => {
  await fc.assert(fc.asyncProperty(caseArb, async ([pick, m]) => {
    const files = nemoFiles.filter((f) => f !== nemoSummary);
    const { fs: mfs, file, applied } = mutated(nemoFs, files, pick, m);
    mfs.remove(nemoSummary);
    const run = await readNemoRollouts(mfs, nemoRollouts);
    checkProblems(run.problems);
    if (file === nemoRollouts) expectLineProblem(run.problems, file, applied.garbageLine);
    // The writer never raises into the run: it writes a summary (or says why not), and the reader reads it back.
    const written = await writeRunSummary(mfs, nemoRollouts);
    checkProblems(written.problems);
    if (!written.error) {
      const back = await readRunSummary(mfs, written.path);
      checkProblems(back.problems);
      assert.equal(back.tasks.length, run.tasks.length);
    }
  }), { numRuns: RUNS });
});

test('readRunSummary: a mutated summary or run file never throws, problems name their file', async () => {
  await fc.assert(fc.asyncProperty(caseArb, fc.boolean(), async ([pick, m], summaryItself) => {
    const { fs: mfs } = mutated(nemoFs, summaryItself ? [nemoSummary] : nemoFiles, pick, m);
    const run = await readRunSummary(mfs, nemoSummary);
    checkProblems(run.problems);
    assert.equal(run.kind, 'nemo-gym');
  }), { numRuns: RUNS });
});

test('readVerdicts: mutated verdict rows never throw; a garbage line is named', async () => {
  const file = nemoFiles.find((f) => f.endsWith('rollout_verdicts.jsonl'))!;
  await fc.assert(fc.asyncProperty(mutationArb, async (m) => {
    const { fs: mfs, applied } = mutated(nemoFs, [file], 0, m);
    const res = await readVerdicts(mfs, file);
    checkProblems(res.problems, file);
    expectLineProblem(res.problems, file, applied.garbageLine);
  }), { numRuns: RUNS });
});

test('readHarborJob: a mutated job or trial file never throws; problems name files inside the job', async () => {
  await fc.assert(fc.asyncProperty(caseArb, async ([pick, m]) => {
    const { fs: mfs } = mutated(harborFs, harborFiles, pick, m);
    const run = await readHarborJob(mfs, harborJob);
    checkProblems(run.problems, harborJob);
    assert.equal(run.kind, 'harbor-job');
    const found = await discoverRuns(mfs, path.posix.dirname(harborJob));
    assert.ok(found.every((c) => c.anchor.startsWith(path.posix.dirname(harborJob))));
  }), { numRuns: RUNS * 2 });
});

test('viewer readers: a mutated project, summary, trace or metrics file never throws; a garbage metrics line is named', async () => {
  const datasets = ['eval-v1', 'dabstep'].map((d) => `${viewerProject}/datasets/${d}`);
  const runs = ['grpo-2b-run1', 'grpo-9b-live'].map((r) => `${viewerProject}/runs/${r}`);
  await fc.assert(fc.asyncProperty(caseArb, async ([pick, m]) => {
    const { fs: mfs, file, applied } = mutated(viewerFs, viewerFiles, pick, m);
    const project = await readViewerProject(mfs, viewerProject);
    checkProblems(project.problems, viewerProject);
    for (const d of datasets) checkProblems((await readViewerDataset(mfs, d)).problems, viewerProject);
    for (const r of runs) {
      const run = await readViewerTrainingRun(mfs, r);
      checkProblems(run.problems, viewerProject);
      if (file === `${r}/train/metrics.jsonl`) expectLineProblem(run.problems, file, applied.garbageLine);
    }
  }), { numRuns: RUNS });
});

test('parseSignatures: arbitrary text and wrong types give a Problem naming the file, never a throw', () => {
  const text = fc.oneof(
    fc.string(),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.record({ rollouts: fc.jsonValue({ maxDepth: 1 }), failures: fc.constant(null), materialized_inputs: fc.jsonValue({ maxDepth: 1 }) })
      .map((s) => JSON.stringify({ schema_version: 1, signatures: s })),
  );
  fc.assert(fc.property(text, (t) => {
    const problems: Problem[] = [];
    const sigs = parseSignatures(t, '/run/rollouts_signatures.json', problems);
    if (sigs === undefined) assert.ok(problems.length > 0);
    checkProblems(problems, '/run/rollouts_signatures.json');
  }), { numRuns: RUNS * 5 });
});

test('the fuzz inputs are real runs: unmutated, the readers see every task', async () => {
  const run = await readRunSummary(nemoFs, nemoSummary);
  assert.equal(run.tasks.length, nemoEveryCase().tasks.length);
  const job = await readHarborJob(harborFs, harborJob);
  assert.equal(job.tasks.reduce((n, t) => n + t.attempts.length, 0), harborEveryCase().trials.length);
  const ds = await readViewerDataset(viewerFs, `${viewerProject}/datasets/eval-v1`);
  assert.equal(ds.tasks.length, viewerEveryCase().datasets[0].tasks.length);
});
