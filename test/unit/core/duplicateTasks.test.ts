// A summary (NeMo Gym run summary, viewer dataset summary.json) that lists one task id for two of its tasks — a
// hand-merged or edited file: each task keeps its own entry, the later one under "<id> [2]", and a warning at that
// entry says so. Before, both kept the id: their tree items collided (VS Code refuses an id registered twice) and
// pass@k pooled their attempts as one task (a run of 2 repeats reported pass@4).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { readViewerDataset } from '../../../src/core/readers/viewerData';
import { inspectRun } from '../../../src/core/report';
import type { Run } from '../../../src/core/model';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-dup-tasks-')).split(path.sep).join('/');
after(() => fs.rmSync(root, { recursive: true, force: true }));
const nfs = new NodeFs();
function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

function check(run: Run, file: string, dupLine: number): void {
  assert.deepEqual(run.tasks.map((t) => t.id), ['a', 'b', 'a [2]', 'a [3]']);
  assert.deepEqual(run.tasks.map((t) => t.label), ['a', 'b', 'a [2]', 'a [3]']);
  const ids = run.tasks.flatMap((t) => t.attempts.map((a) => a.id));
  assert.equal(new Set(ids).size, ids.length, `attempt ids are distinct: ${ids.join(', ')}`);
  assert.ok(run.tasks[2].attempts.every((a) => a.id.startsWith('a [2]#')));
  const dups = run.problems.filter((p) => p.code === 'duplicate-task');
  assert.deepEqual(dups.map((p) => [p.file, p.severity, p.message]), [
    [file, 'warning', 'task id "a" is given to an earlier task too: this entry is shown as "a [2]", a task of its own'],
    [file, 'warning', 'task id "a" is given to an earlier task too: this entry is shown as "a [3]", a task of its own'],
  ]);
  assert.equal(dups[0].line, dupLine);
  const r = inspectRun(run);
  assert.deepEqual(r.passAtK.map((e) => [e.k, e.nTasks]), [[1, 4]], 'one attempt per task: pass@1 over 4 tasks, no pooled pass@k');
}

test('a NeMo Gym run summary giving one task id to several tasks', async () => {
  const file = `${root}/nemo/r_run_summary.json`;
  const task = (id: string, reward: number) => ({ task_id: id, repeats: [{ repeat: 0, outcome: 'scored', reward }] });
  write(file, { files: {}, tasks: [task('a', 1), task('b', 0), task('a', 0), task('a', 1)] });
  const run = await readRunSummary(nfs, file);
  check(run, file, 24);
});

test('a viewer dataset summary.json giving one task id to several tasks', async () => {
  const dir = `${root}/viewer/projects/p/datasets/d`;
  write(`${root}/viewer/projects/p/project.json`, { label: 'P' });
  const task = (id: string, reward: number) => ({ id, cells: { 'm|h': { attempts: [{ attempt: 1, reward }] } } });
  write(`${dir}/summary.json`, { tasks: [task('a', 1), task('b', 0), task('a', 0), task('a', 1)] });
  const run = await readViewerDataset(nfs, dir);
  check(run, `${dir}/summary.json`, 29);
});
