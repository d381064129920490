// Conformance on real Harbor trajectories (Terminus-2 golden files and a task-level example), when a folder of them
// is present (REAL_TRAJECTORIES, or shared/fixtures/harbor/real beside the project or a folder above it); skipped
// with the reason otherwise. Every one must read as ATIF with no error, pair what it can and agree with its own step count.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadTrajectory } from '../../../src/core/trajectory';
import { MemFs } from '../../../scripts/sample-runs/memFs';

const repoRoot = path.resolve(__dirname, '../../../..');
const candidates = [1, 2, 3].map((up) => path.resolve(repoRoot, ...Array<string>(up).fill('..'), 'shared', 'fixtures', 'harbor', 'real'));
const dir = process.env.REAL_TRAJECTORIES ?? candidates.find((c) => fs.existsSync(c)) ?? candidates[0];

function jsonFiles(d: string): string[] {
  if (!fs.existsSync(d)) return [];
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? jsonFiles(p) : e.name.endsWith('.json') ? [p] : [];
  }).sort();
}

const files = jsonFiles(dir);
const skip = files.length ? false : `no real trajectories at ${dir} (set REAL_TRAJECTORIES to a folder of them)`;

test('real trajectories read as ATIF without errors', { skip }, async () => {
  for (const f of files) {
    const v = await loadTrajectory(new NodeFs(), f.split(path.sep).join('/'));
    const errors = v.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors, [], f);
    assert.equal(v.notAtif, null, f);
    assert.match(v.schemaVersion ?? '', /^ATIF-v1\.\d$/, f);
    assert.ok(v.steps.length > 0, f);
    const raw = JSON.parse(fs.readFileSync(f, 'utf8')) as { steps: unknown[]; final_metrics?: { total_steps?: number } };
    assert.equal(v.steps.length, raw.steps.length, f);
    assert.ok(v.paired <= v.toolCalls, f);
    // No step timestamp in the golden files: no duration is ever made up.
    for (const s of v.steps) if (s.timestamp === null) assert.equal(s.durationMs, null, `${f} step ${s.index}`);
    if (v.steps.every((s) => s.timestamp === null)) assert.equal(v.elapsedMs, null, f);
  }
});

test('a task-level trajectory (beside instruction.md) is labelled as such; the same file in agent/ is not', { skip: skip || !files.some((f) => f.includes('example-task')) }, async () => {
  const bytes = fs.readFileSync(files.find((x) => x.includes('example-task'))!);
  const mem = new MemFs();
  mem.put('/tasks/hello/trajectory.json', bytes);
  mem.put('/tasks/hello/instruction.md', 'Say hello.');
  mem.put('/jobs/j/hello__1/agent/trajectory.json', bytes);
  mem.put('/jobs/j/hello__1/agent/instruction.md', 'copied in');
  mem.put('/tasks/multi/steps/one/trajectory.json', bytes);
  mem.put('/tasks/multi/task.toml', '');
  assert.equal((await loadTrajectory(mem, '/tasks/hello/trajectory.json')).taskLevel, true);
  assert.equal((await loadTrajectory(mem, '/jobs/j/hello__1/agent/trajectory.json')).taskLevel, false);
  assert.equal((await loadTrajectory(mem, '/tasks/multi/steps/one/trajectory.json')).taskLevel, true);
});
