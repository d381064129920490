// A trajectory's continuations and subagent files are read only from inside its folder (as its media are,
// docs/untrusted-runs.md#media-in-trajectories): a continued_trajectory_ref or trajectory_path that resolves elsewhere
// (`../x.json`, an absolute path, a link inside the folder to a file outside it) is refused with a problem, and
// nothing of that file is read or quoted. Real folders, so that links resolve.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadTrajectory } from '../../../src/core/trajectory';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-contain-')).split(path.sep).join('/');
after(() => fs.rmSync(root, { recursive: true, force: true }));

const atif = (extra: Record<string, unknown> = {}, message = 'hello') => ({
  schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' },
  steps: [{ step_id: 1, source: 'agent', message, metrics: { prompt_tokens: 7 } }], ...extra,
});
let n = 0;
function folder(files: Record<string, unknown>): string {
  const dir = `${root}/case-${++n}/agent`;
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(`${dir}/${rel}`), { recursive: true });
    fs.writeFileSync(`${dir}/${rel}`, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return dir;
}
// Outside every case's folder: an ATIF document and a file that is not JSON at all.
fs.writeFileSync(`${root}/secret.json`, JSON.stringify(atif({}, 'SECRET-STEP')));
fs.writeFileSync(`${root}/secret.txt`, 'SECRET-TOKEN=abc');

test('a continuation outside the trajectory folder is refused, not read or quoted', async () => {
  for (const ref of ['../../secret.json', `${root}/secret.txt`, '../../secret.txt']) {
    const dir = folder({ 'trajectory.json': atif({ continued_trajectory_ref: ref }) });
    const v = await loadTrajectory(new NodeFs(), `${dir}/trajectory.json`);
    assert.equal(v.steps.length, 1, ref);
    assert.equal(v.files.length, 1, ref);
    const p = v.problems.find((x) => x.pointer === '/continued_trajectory_ref');
    assert.ok(p, ref);
    assert.match(p.message, /outside the trajectory's folder/);
    assert.ok(!JSON.stringify(v.problems).includes('SECRET'), ref);
    assert.equal(v.totals.prompt_tokens, 7);
  }
});

test('a continuation that is a link to a file outside the folder is refused', async () => {
  const dir = folder({ 'trajectory.json': atif({ continued_trajectory_ref: 'trajectory.cont-1.json' }) });
  fs.symlinkSync(`${root}/secret.json`, `${dir}/trajectory.cont-1.json`);
  const v = await loadTrajectory(new NodeFs(), `${dir}/trajectory.json`);
  assert.equal(v.steps.length, 1);
  assert.match(v.problems.find((x) => x.pointer === '/continued_trajectory_ref')?.message ?? '', /link to .*outside the trajectory's folder/);
});

test('a subagent trajectory_path outside the folder is unresolved and not read', async () => {
  const step = { step_id: 1, source: 'agent', message: 'x', observation: { results: [{ subagent_trajectory_ref: [{ trajectory_path: '../../secret.json' }] }] } };
  const dir = folder({ 'trajectory.json': { ...atif(), steps: [step] } });
  const v = await loadTrajectory(new NodeFs(), `${dir}/trajectory.json`);
  assert.equal(v.subagents.length, 1);
  assert.equal(v.subagents[0].view, null);
  assert.match(v.subagents[0].unresolved ?? '', /outside the trajectory's folder/);
  assert.equal(v.totalsWithSubagents.prompt_tokens, null);
  assert.ok(!JSON.stringify(v.problems).includes('SECRET'));
});

test('continuations and subagents inside the folder (and its sub-folders) are still followed', async () => {
  const step = { step_id: 1, source: 'agent', message: 'x', metrics: { prompt_tokens: 1 }, observation: { results: [{ subagent_trajectory_ref: [{ trajectory_path: 'subagents/s.json' }] }] } };
  const dir = folder({
    'trajectory.json': { ...atif({ continued_trajectory_ref: './trajectory.cont-1.json' }), steps: [step] },
    'trajectory.cont-1.json': atif({}, 'second'),
    'subagents/s.json': atif({}, 'sub'),
  });
  const v = await loadTrajectory(new NodeFs(), `${dir}/trajectory.json`);
  assert.equal(v.steps.length, 2);
  assert.equal(v.subagents[0].unresolved, null);
  assert.equal(v.subagents[0].steps, 1);
  assert.deepEqual(v.problems, []);
});
