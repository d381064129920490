// `harbor-runs inspect` pointed at a part of a run (a Harbor trial folder, a file in it, its verifier folder) or at
// a trajectory: still "No runs found" on stdout (exit 0: nothing is wrong with what was read), and a line on stderr
// saying where the run is — the job folder — or which command reads a trajectory. It said "No runs found" alone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-inspect-hint-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const cli = path.resolve(__dirname, '..', '..', '..', 'cli.js');

function inspect(p: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, 'inspect', p], { encoding: 'utf8', cwd: os.tmpdir() });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
}

test('a trial folder, a file or folder in it: "No runs found", and stderr names the job folder to inspect', () => {
  const job = `${tmpRoot}/jobs/2026-01-01__00-00-00`;
  const trial = `${job}/hello__AbC1234`;
  write(`${job}/config.json`, { job_name: '2026-01-01__00-00-00' });
  write(`${trial}/result.json`, { task_name: 'hello', trial_name: 'hello__AbC1234', verifier_result: { rewards: { reward: 1 } } });
  write(`${trial}/verifier/reward.txt`, '1');
  write(`${trial}/agent/trajectory.json`, { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [] });
  assert.match(inspect(job).out, /^1 run under /, 'the job itself is the run');
  for (const p of [trial, `${trial}/result.json`, `${trial}/verifier`, `${trial}/agent/trajectory.json`]) {
    const r = inspect(p);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^No runs found under /, p);
    assert.equal(r.err, `harbor-runs inspect: ${p} is part of the Harbor job ${job}, which is the run: inspect that folder\n`);
  }
});

test('a trajectory outside any run: the trajectory command is named; a folder with nothing of a run: no hint', () => {
  const traj = `${tmpRoot}/loose/trajectory.cont-1.json`;
  write(traj, { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [] });
  const r = inspect(traj);
  assert.equal(r.code, 0);
  assert.equal(r.err, `harbor-runs inspect: to read a trajectory: harbor-runs trajectory ${traj}\n`);
  write(`${tmpRoot}/empty/jobs/.keep`, '');
  const e = inspect(`${tmpRoot}/empty`);
  assert.match(e.out, /^No runs found under /);
  assert.equal(e.err, '');
});
