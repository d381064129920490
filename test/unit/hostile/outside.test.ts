// Item 4: paths the data names that leave the run are flagged as outside the run and never read, quoted or listed;
// the run's rollouts path (what Write Run Summary and the quick fix rewrite) is only ever the one beside the summary.
// Item 8 (terminal): ids and messages with escape sequences, control characters and bidi overrides never reach the
// terminal raw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { isInside } from '../../../src/core/containment';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { readViewerDataset } from '../../../src/core/readers/viewerData';
import { generateViewerData, viewerEveryCase } from '../../../scripts/sample-runs/viewerData';
import { HOSTILE_TEXT, setJsonValue } from '../../../scripts/sample-runs/mutate';
import { nemoRunWithSummary, runCli, tempDir } from './helpers';

/** A NodeFs that records every path it is asked about. */
function recordingFs(): { fs: NodeFs; touched: string[] } {
  const touched: string[] = [];
  const base = new NodeFs();
  const fs = Object.create(base) as NodeFs;
  for (const m of ['stat', 'readFile', 'readDir', 'readChunks', 'openSequential'] as const) {
    (fs as unknown as Record<string, unknown>)[m] = (p: string, ...rest: unknown[]) => {
      touched.push(p);
      return (base[m] as (...a: unknown[]) => unknown).call(base, p, ...rest);
    };
  }
  fs.listDirs = async (ps) => { touched.push(...ps); return base.listDirs(ps); };
  return { fs, touched };
}

test('containment: isInside resolves .. lexically', () => {
  assert.equal(isInside('/r/run', '/r/run/a/../b'), true);
  assert.equal(isInside('/r/run', '/r/run'), true);
  assert.equal(isInside('/r/run', '/r/run/../../etc/passwd'), false);
  assert.equal(isInside('/r/run', '/r/runner/x'), false);
  assert.equal(isInside('/r/run', '/etc/shadow'), false);
});

test('run summary naming /etc/passwd, /etc/shadow, /etc and ../..: flagged outside, nothing outside the run touched or quoted', async () => {
  const run = await nemoRunWithSummary();
  const doc = JSON.parse(fs.readFileSync(run.summary, 'utf8')) as { tasks: { repeats: Record<string, unknown>[] }[] };
  const up = '../'.repeat(12);
  setJsonValue(run.summary, ['files', 'rollouts'], `${up}etc/passwd`);
  setJsonValue(run.summary, ['files', 'rollout_verdicts'], '/etc/passwd');
  setJsonValue(run.summary, ['files', 'quality_summary'], '/etc/shadow');
  const ti = doc.tasks.findIndex((t) => t.repeats.length > 0);
  setJsonValue(run.summary, ['tasks', ti, 'repeats', 0, 'test_stdout'], `${up}etc/passwd`);
  setJsonValue(run.summary, ['tasks', ti, 'repeats', 0, 'verifier_logs'], '/etc');
  setJsonValue(run.summary, ['tasks', ti, 'repeats', 0, 'missing'], ['/etc/hosts']);
  const { fs: rec, touched } = recordingFs();
  const r = await readRunSummary(rec, run.summary);
  const outsideTouched = touched.filter((p) => !isInside(run.dir, p));
  assert.deepEqual(outsideTouched, [], 'no path outside the run was stat-ed, listed or read');
  const text = JSON.stringify(r);
  assert.ok(!/root:x?:0/.test(text), 'nothing of /etc/passwd quoted');
  assert.equal(r.rolloutsPath, run.rollouts, 'the rollouts to rewrite are the ones beside the summary');
  for (const key of ['rollouts', 'rollout_verdicts', 'quality_summary']) {
    const f = r.files.find((x) => x.key === key);
    assert.equal(f?.outside, true, key);
    assert.equal(f?.present, false, key);
  }
  const a = r.tasks[ti].attempts[0];
  for (const kind of ['test-stdout', 'verifier-logs']) {
    const ev = a.evidence.find((e) => e.kind === kind);
    assert.equal(ev?.outside, true, kind);
    assert.equal(ev?.present, false, kind);
  }
  assert.ok(a.evidence.some((e) => e.path === '/etc/hosts' && e.outside));
  assert.ok(!a.missing.some((m) => !isInside(run.dir, m)), 'outside paths are not "missing" either');
  const flags = r.problems.filter((p) => p.code === 'outside-run');
  assert.ok(flags.length >= 6, JSON.stringify(flags.map((p) => p.message)));
  assert.ok(flags.every((p) => p.file === run.summary));
  // The CLI says so and quotes nothing.
  const cli = runCli(['inspect', run.dir]);
  assert.equal(cli.code, 0);
  assert.match(cli.out, /outside-run/);
  assert.ok(!/root:x?:0/.test(cli.out));
});

test('viewer trace paths outside the dataset are flagged and not stat-ed', async () => {
  const dataDir = tempDir('viewer-');
  const res = await generateViewerData(dataDir, viewerEveryCase());
  const summary = `${Object.values(res.datasets)[0]}/summary.json`.split(path.sep).join('/');
  const doc = JSON.parse(fs.readFileSync(summary, 'utf8')) as { tasks: { cells: Record<string, { attempts: { trace?: string }[] }> }[] };
  const cellKey = Object.keys(doc.tasks[0].cells)[0];
  setJsonValue(summary, ['tasks', 0, 'cells', cellKey, 'attempts', 0, 'trace'], `${'../'.repeat(30)}etc/passwd`);
  const { fs: rec, touched } = recordingFs();
  const run = await readViewerDataset(rec, path.posix.dirname(summary));
  assert.deepEqual(touched.filter((p) => p.startsWith('/etc')), []);
  const ev = run.tasks.flatMap((t) => t.attempts).flatMap((a) => a.evidence).find((e) => e.path === '/etc/passwd');
  assert.equal(ev?.outside, true);
  assert.ok(run.problems.some((p) => p.code === 'outside-run'));
});

test('CLI inspect: escape sequences, control characters and bidi overrides in task ids and messages never reach the terminal raw', async () => {
  const run = await nemoRunWithSummary();
  const doc = JSON.parse(fs.readFileSync(run.summary, 'utf8')) as { tasks: { task_id: string }[] };
  const texts = Object.values(HOSTILE_TEXT);
  texts.forEach((t, i) => { if (i < doc.tasks.length) setJsonValue(run.summary, ['tasks', i, 'task_id'], t); });
  setJsonValue(run.summary, ['target'], HOSTILE_TEXT.clearScreen);
  const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  const text = runCli(['inspect', run.dir]);
  assert.equal(text.code, 0);
  const out = text.out;
  assert.ok(!unsafe.test(out), JSON.stringify(out.match(unsafe)));
  assert.match(out, /task\\x1b\[2J\\x1b\[Hforged/);
  assert.match(out, /task-\\u202egnp\.exe/);
  assert.ok(!out.split('\n').some((l) => l.startsWith('ok   all passed')), 'no forged line');
  const json = runCli(['inspect', '--json', run.dir]);
  assert.ok(!unsafe.test(json.out), 'the JSON escapes them too');
  const parsed = JSON.parse(json.out) as { runs: { tasks: { id: string }[] }[] };
  assert.ok(parsed.runs[0].tasks.some((t) => t.id === HOSTILE_TEXT.bidi), 'the JSON still means the same id');
});
