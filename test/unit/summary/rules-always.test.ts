// Rules 12–13 of the run summary (always written; atomic and harmless), bad input, cancel and progress.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, cleanStaleTemps, serializeSummary, writeRunSummary } from '../../../src/core/summary';
import type { FsPort } from '../../../src/core/fs/port';
import { RunSummarySchema } from '../../../src/core/schemas/runSummary';
import { buildRun, missingEntry, type MiniTask } from './builders';
import { copyFixture, fixtureDir, nodeFs, posix, readJson, tmpDir } from './helpers';

test('rule 12: a run that wrote no rollouts still gets a summary: files.rollouts null, every task missing', async () => {
  const dir = tmpDir('rule12');
  const a: MiniTask = { id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'failed' }] };
  const b: MiniTask = { id: 'b', repeats: [{ outcome: 'scored' }] };
  const rollouts = buildRun(dir, { tasks: [a, b] });
  for (const f of ['rollouts.jsonl', 'rollouts_failures.jsonl']) fs.rmSync(path.join(dir, f));
  const res = await writeRunSummary(nodeFs, posix(rollouts), { skipped: { c: 'c: instruction.md is missing' } });
  assert.equal(res.error, undefined);
  const doc = readJson(res.path) as Record<string, unknown>;
  assert.equal((doc.files as Record<string, unknown>).rollouts, null);
  assert.equal((doc.files as Record<string, unknown>).materialized_inputs, 'rollouts_materialized_inputs.jsonl');
  assert.deepEqual(doc.tasks, [
    { task_id: 'a', task_index: 0, repeats: [missingEntry(a, 0), missingEntry(a, 1)] },
    { task_id: 'b', task_index: 1, repeats: [missingEntry(b, 0)] },
  ]);
  assert.deepEqual(doc.skipped, { c: 'c: instruction.md is missing' });
});

test('rule 12: unvalidated tasks have no task entry; a validate that dispatched nothing says why', async () => {
  const dir = tmpDir('rule12b');
  const rollouts = buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }, { id: 'b', repeats: [{ outcome: 'missing' }] }] });
  const { document } = await buildRunSummary(nodeFs, posix(rollouts), { unvalidated: { b: 'NO_REFERENCE_SOLUTION' } });
  assert.deepEqual(document.tasks.map((t) => t.task_id), ['a']);
  assert.deepEqual(document.unvalidated, { b: 'NO_REFERENCE_SOLUTION' });
});

test('rule 12: the fixture\'s validate with no solution/ gives variants/validate_no_solution', { skip: !fixtureDir() && 'no shared fixtures' }, async () => {
  const src = fixtureDir()!;
  const dir = copyFixture(src);
  for (const e of fs.readdirSync(dir)) if (e !== 'tasks.jsonl') fs.rmSync(path.join(dir, e), { recursive: true });
  const variant = readJson(path.join(src, 'variants', 'validate_no_solution_run_summary.json')) as Record<string, unknown> & { dataset: object; unvalidated: Record<string, string>; skipped: Record<string, string> };
  const { document } = await buildRunSummary(nodeFs, posix(path.join(dir, 'rollouts.jsonl')), {
    identity: { target: 'datasets/tb-mini', agent: 'oracle_agent' }, unvalidated: variant.unvalidated, skipped: variant.skipped,
  });
  // Only the dataset folder is not recorded anywhere in the folder (no run config was written): it stays null.
  assert.deepEqual(document, { schema_version: 1, ...variant, dataset: { ...variant.dataset, folder: null } });
});

test('rule 13: the writer never throws: an unwritable place comes back as an error', async () => {
  const dir = tmpDir('rule13');
  fs.writeFileSync(path.join(dir, 'file'), 'x');
  const res = await writeRunSummary(nodeFs, posix(path.join(dir, 'file', 'rollouts.jsonl')));
  assert.match(res.error ?? '', /not written: no run at/);
  assert.equal(res.document, undefined);
  assert.ok(res.problems.some((p) => p.code === 'write-refused' && p.severity === 'error'));
  // A broken FsPort (every call throws) is still not thrown into the caller.
  const broken = new Proxy(nodeFs, { get: () => async () => { throw new Error('disk on fire'); } });
  const r2 = await writeRunSummary(broken, posix(path.join(dir, 'rollouts.jsonl')));
  assert.match(r2.error ?? '', /disk on fire/);
});

test('rule 13: temp files of dead writers are cleaned up; a live writer\'s are kept', async () => {
  const dir = tmpDir('temps');
  const rollouts = buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] });
  const dead = path.join(dir, '.rollouts_run_summary.json.999999999.0a1b2c.tmp');
  const live = path.join(dir, `.rollouts_run_summary.json.${process.ppid}.ffee00.tmp`);
  const other = path.join(dir, '.other.json.999999999.0a1b2c.tmp');
  for (const p of [dead, live, other]) fs.writeFileSync(p, '{"half":');
  const res = await writeRunSummary(nodeFs, posix(rollouts));
  assert.equal(res.error, undefined);
  assert.equal(fs.existsSync(dead), false);
  assert.equal(fs.existsSync(live), true);
  assert.equal(fs.existsSync(other), true);
  // Without a remove-capable FsPort they are reported, not removed.
  fs.writeFileSync(dead, '{');
  const plain = { readDir: (p: string) => nodeFs.readDir(p), stat: (p: string) => nodeFs.stat(p) } as unknown as FsPort;
  const left = await cleanStaleTemps(plain, posix(path.join(dir, 'rollouts_run_summary.json')));
  assert.deepEqual(left, [posix(dead)]);
});

test('bad lines in the rollouts: a Problem naming file and line, the rest still summarised', async () => {
  const dir = tmpDir('badlines');
  const rollouts = buildRun(dir, {
    tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'scored', folder: 'none' }, { outcome: 'scored', folder: 'none' }] }],
    badLine: { after: 1, text: '{"_ng_task_index": 0, "reward": ' },
  });
  fs.appendFileSync(rollouts, '[1, 2]\n{"reward": 1.0, "mask_sample"');
  const { document, problems } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.deepEqual(document.tasks[0].repeats.map((r) => r.outcome), ['scored', 'scored', 'scored']);
  const p = posix(rollouts);
  assert.ok(problems.some((x) => x.file === p && x.line === 2 && x.code === 'parse-error'), 'line 2 is garbage');
  assert.ok(problems.some((x) => x.file === p && x.line === 5 && x.code === 'parse-error'), 'line 5 is not an object');
  assert.ok(problems.some((x) => x.file === p && x.line === 6 && x.code === 'incomplete-tail'), 'line 6 is cut off');
});

test('cancel: an aborted signal writes nothing and says so; progress reaches the total', async () => {
  const dir = tmpDir('cancel');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', padBytes: 1000 }] }] }));
  const ctl = new AbortController();
  ctl.abort();
  const res = await writeRunSummary(nodeFs, rollouts, { signal: ctl.signal });
  assert.equal(res.error, 'cancelled');
  assert.equal(fs.existsSync(res.path), false);
  const seen: [number, number][] = [];
  const ok = await writeRunSummary(nodeFs, rollouts, { onProgress: (a, b) => seen.push([a, b]) });
  assert.equal(ok.error, undefined);
  const total = ['rollouts.jsonl', 'rollouts_materialized_inputs.jsonl'].reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
  assert.deepEqual(seen.at(-1), [total, total]);
  // What is on disk is exactly serializeSummary(document), and it validates against the schema.
  assert.equal(fs.readFileSync(ok.path, 'utf8'), serializeSummary(ok.document!));
  assert.ok(RunSummarySchema.safeParse(readJson(ok.path)).success);
  // Written in chunks as it is serialized (never whole in memory) unless the caller keeps the bytes, which are then
  // exactly the file's.
  assert.equal(ok.bytes, undefined);
  const kept = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
  assert.deepEqual(Buffer.from(kept.bytes!), fs.readFileSync(kept.path));
  assert.equal(fs.readFileSync(kept.path, 'utf8'), serializeSummary(kept.document!));
});
