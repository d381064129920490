// writeRunSummary and cleanStaleTemps (rules 1 and 13) in-process: what is refused before anything is read (a run file
// that is a folder or not a regular file; nothing of a run there) word for word, what is not refused (a run config or
// signatures path that is a folder is read leniently), a port without chunked writes, a port whose write throws
// something that is not an Error, a cancel that lands after the document is built, and dead writers' temp files that
// cannot be removed or are folders. The CLI-level tests (summary/cli, hostile/writer) cover the same ground by
// spawning the CLI; these run in the test process.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { cleanStaleTemps, serializeSummary, writeRunSummary } from '../../../src/core/summary';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { buildRun, type MiniTask } from './builders';
import { nodeFs, posix, readJson, tmpDir } from './helpers';

const task: MiniTask = { id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }] };

/** A built run on disk and its paths (posix). */
function run(label: string): { dir: string; rollouts: string; summary: string } {
  const dir = tmpDir(label);
  const rollouts = posix(buildRun(dir, { tasks: [task] }));
  return { dir: posix(dir), rollouts, summary: `${posix(dir)}/rollouts_run_summary.json` };
}

const refused = (file: string, message: string): Problem => ({ file, severity: 'error', code: 'write-refused', message });

test('writeRunSummary: a run file that is a folder, or not a regular file, is refused word for word; nothing is written', async () => {
  const { dir, rollouts, summary } = run('folder');
  fs.rmSync(rollouts);
  fs.mkdirSync(rollouts);
  const res = await writeRunSummary(nodeFs, rollouts);
  const error = `not written: ${rollouts} is a folder: not read, nothing written`;
  assert.deepEqual(res, { path: summary, problems: [refused(summary, error)], error });
  assert.equal(fs.existsSync(summary), false);

  // A FIFO (or a device, a socket) as the failures file: the port says 'other'.
  const m = MemFs.fromDisk(dir);
  m.files.delete(rollouts);
  const fifo = `${dir}/rollouts_failures.jsonl`;
  const port = Object.assign(m, { stat: async (p: string): Promise<FileStat | undefined> => (p === fifo ? { type: 'other', size: 0, mtimeMs: 0 } : MemFs.prototype.stat.call(m, p)) });
  const r2 = await writeRunSummary(port, rollouts);
  const e2 = `not written: ${fifo} is not a regular file (a FIFO, a device or a socket): not read, nothing written`;
  assert.deepEqual(r2, { path: summary, problems: [refused(summary, e2)], error: e2 });
});

test('writeRunSummary: a run config or signatures path that is a folder is no refusal (they are read leniently)', async () => {
  for (const name of ['run_config.yaml', 'rollouts_signatures.json']) {
    const { dir, rollouts, summary } = run('lenient');
    fs.mkdirSync(path.join(dir, name));
    const res = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
    assert.equal(res.error, undefined, name);
    assert.equal(fs.readFileSync(summary, 'utf8'), serializeSummary(res.document!));
    assert.deepEqual(res.document!.tasks.map((t) => t.task_id), ['a']);
  }
});

test('writeRunSummary: nothing of a run at the path is refused word for word; a clean write has no problems', async () => {
  const dir = posix(tmpDir('typo'));
  const res = await writeRunSummary(nodeFs, `${dir}/rollots.jsonl`);
  const error = `not written: no run at ${dir}/rollots.jsonl: no rollouts file, no rollots_failures.jsonl or rollots_materialized_inputs.jsonl, `
    + 'no run_config.yaml beside it (a typo?); nothing written';
  assert.deepEqual(res, { path: `${dir}/rollots_run_summary.json`, problems: [refused(`${dir}/rollots_run_summary.json`, error)], error });
  assert.deepEqual(fs.readdirSync(dir), []);

  const { rollouts, summary } = run('clean');
  const ok = await writeRunSummary(nodeFs, rollouts);
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.path, summary);
  assert.deepEqual(readJson(summary), JSON.parse(serializeSummary(ok.document!)));
});

test('writeRunSummary: a port without chunked writes gets the whole bytes; a failed write says what was thrown', async () => {
  const { dir, rollouts, summary } = run('memfs');
  const m = MemFs.fromDisk(dir);
  const res = await writeRunSummary(m, rollouts);
  assert.equal(res.error, undefined);
  assert.equal(Buffer.from(m.files.get(summary)!.data).toString('utf8'), serializeSummary(res.document!));
  assert.deepEqual(Buffer.from(res.bytes!), Buffer.from(m.files.get(summary)!.data));

  // The port throws something that is not an Error (a string, null): said as it is, never thrown into the caller.
  for (const [thrown, said] of [['disk full', 'disk full'], [null, 'null'], [undefined, 'undefined']] as const) {
    const bad = Object.assign(MemFs.fromDisk(dir), { writeFileAtomic: async () => { throw thrown; } });
    const r = await writeRunSummary(bad, rollouts);
    const error = `cannot write ${summary}: ${said}`;
    assert.deepEqual(r, { path: summary, problems: [{ file: summary, severity: 'error', code: 'write-failed', message: error }], error });
  }
});

test('writeRunSummary: a cancel that lands after the document is built still writes nothing', async () => {
  const { rollouts, summary } = run('late-cancel');
  // The cancel comes while the rollouts are opened, the build's last read: the rows are read to the end (the cancel is
  // checked every 256 lines) and the document is built, but nothing is written.
  const ctl = new AbortController();
  const port = new Proxy(nodeFs, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'openSequential' || typeof v !== 'function') return v;
      return (p: string) => {
        if (p === rollouts) ctl.abort();
        return (v as (p: string) => unknown).call(target, p);
      };
    },
  });
  const res = await writeRunSummary(port, rollouts, { signal: ctl.signal });
  assert.equal(ctl.signal.aborted, true);
  assert.deepEqual(res, { path: summary, problems: [{ file: summary, severity: 'info', code: 'cancelled', message: 'cancelled' }], error: 'cancelled' });
  assert.equal(fs.existsSync(summary), false);
});

test('writeRunSummary: bad lines of a run file (one over the line limit, more than are listed) are problems, not a refusal: the summary is written', async () => {
  const { dir, rollouts, summary } = run('bad-lines');
  const failures = `${dir}/rollouts_failures.jsonl`;
  // A line of 9 MiB, over the port's 1 MiB limit of one line and longer than a chunk of the read.
  fs.appendFileSync(rollouts, `${'x'.repeat(9 * 1024 * 1024)}\n${Array.from({ length: 60 }, () => 'not json').join('\n')}\n`);
  fs.writeFileSync(failures, `${Array.from({ length: 55 }, () => 'not json').join('\n')}\n`);
  const res = await writeRunSummary(new NodeFs({ maxFileBytes: 1024 * 1024 }), rollouts);
  assert.equal(res.error, undefined);
  assert.ok(fs.existsSync(summary));
  const said = (file: string, code: string) => res.problems.filter((p) => p.file === file && p.code === code).map((p) => p.line);
  assert.deepEqual(said(rollouts, 'too-large'), [2]);
  assert.deepEqual(said(rollouts, 'more-problems'), [undefined]);
  assert.deepEqual(said(failures, 'more-problems'), [undefined]);
});

test('cleanStaleTemps: a temp that cannot be removed is reported as left; a folder named like one is not touched', async () => {
  const { dir, rollouts, summary } = run('temps');
  const dead = `${dir}/.rollouts_run_summary.json.999999999.0a1b2c.tmp`;
  const deadDir = `${dir}/.rollouts_run_summary.json.999999998.0a1b2c.tmp`;
  fs.writeFileSync(dead, '{');
  fs.mkdirSync(deadDir);
  const m = Object.assign(MemFs.fromDisk(dir), { remove: async () => { throw new Error('read-only'); } });
  (m as unknown as { addDir(d: string): void }).addDir(deadDir);
  const res = await writeRunSummary(m, rollouts);
  assert.equal(res.error, undefined);
  assert.deepEqual(res.problems, [{ file: dead, severity: 'info', code: 'stale-temp', message: `a dead writer's temp file is left: ${dead}` }]);
  assert.ok(m.files.has(summary));

  // On disk: the dead writer's file goes, the folder named like a temp file stays and is not reported.
  assert.deepEqual(await cleanStaleTemps(nodeFs, summary, () => false), []);
  assert.equal(fs.existsSync(dead), false);
  assert.equal(fs.statSync(deadDir).isDirectory(), true);
  // The default liveness check: a running process's temp (pid 1, maybe another user's: EPERM) is kept.
  const init = `${dir}/.rollouts_run_summary.json.1.0a1b2c.tmp`;
  const own = `${dir}/.rollouts_run_summary.json.${process.pid}.0a1b2c.tmp`;
  fs.writeFileSync(init, '{');
  fs.writeFileSync(own, '{');
  assert.deepEqual(await cleanStaleTemps(nodeFs, summary), []);
  assert.equal(fs.existsSync(init), true);
  assert.equal(fs.existsSync(own), true);
});
