import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { readViewerDataset, readViewerTrainingRun } from '../../src/core/readers/viewerData';

// Every temp folder of this file sits in one, removed after its tests.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-viewer-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const nfs = new NodeFs();

function tmp(): string {
  return fs.mkdtempSync(path.join(tmpRoot, 'hr-viewer-')).split(path.sep).join('/');
}

function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

const M = 'Qwen/Qwen3.5-2B';
const cellA = `${M}|mini-swe-agent`;
const cellB = `${M}|opencode`;

/** Two tasks × two cells × two attempts; task b's opencode cell never got a verifier. */
function summary(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    k_max: 2,
    models: [M],
    harnesses: ['mini-swe-agent', 'opencode'],
    // tasks: a passes in A (at 2) and B (at 1); b fails in A, all-null in B.
    summary: { tasks_total: 2, tasks_any_pass: 1, attempts_total: 8, attempts_passed: 2, n_all_infra: 0 },
    by_model: [{ model: M, cells: 4, 'pass@1': 0.333, 'pass@2': 0.667, n_measured: 3, mean_turns: 10 }],
    by_harness: [
      { harness: 'mini-swe-agent', cells: 2, 'pass@1': 0.25, 'pass@2': 0.5, n_measured: 2 },
      { harness: 'opencode', cells: 2, 'pass@1': 0.5, 'pass@2': 1, n_measured: 1 },
    ],
    tasks: [
      { id: 'a', index: 0, difficulty: 'easy', question: 'What?', answer: '0.4', reward_mode: 'numeric', cells: {
        [cellA]: { passed_at: 2, attempts: [
          { attempt: 1, reward: 0, n_turns: 12, elapsed_sec: 41.2, trace: 'traces/a-A-1.json' },
          { attempt: 2, reward: 1, n_turns: 9, elapsed_sec: 30, trace: 'traces/a-A-2.json' }] },
        [cellB]: { passed_at: 1, attempts: [
          { attempt: 1, reward: 1, trace: 'traces/a-B-1.json' },
          { attempt: 2, reward: 0, trace: 'traces/a-B-2.json' }] },
      } },
      { id: 'b', index: 1, cells: {
        [cellA]: { passed_at: null, attempts: [{ attempt: 1, reward: 0 }, { attempt: 2, reward: 0 }] },
        [cellB]: { passed_at: null, attempts: [{ attempt: 1, reward: null }, { attempt: 2, reward: null }] },
      } },
    ],
    ...overrides,
  };
}

function makeProject(root: string, sum: unknown = summary()): string {
  const p = `${root}/projects/data-agent`;
  write(`${p}/project.json`, {
    project_id: 'data-agent', label: 'Data-Agent Bench',
    support: { 'mini-swe-agent': { tier: 'stable' }, opencode: { tier: 'experimental', caveats: ['no step limit'] } },
  });
  const d = `${p}/datasets/eval-v1`;
  write(`${d}/dataset.json`, { label: 'Eval v1' });
  write(`${d}/summary.json`, sum);
  for (const t of ['a-A-1', 'a-A-2', 'a-B-1']) write(`${d}/traces/${t}.json`, { task_id: 'a', messages: [] });
  return d;
}

test('a viewer dataset: label, identity, one attempt per cell attempt, outcomes and tiers', async () => {
  const d = makeProject(tmp());
  const run = await readViewerDataset(nfs, d);
  assert.equal(run.kind, 'viewer-data');
  assert.equal(run.label, 'Data-Agent Bench / Eval v1');
  assert.equal(run.root, d);
  assert.equal(run.anchor, `${d}/summary.json`);
  assert.equal(run.identity.project, 'data-agent');
  assert.equal(run.identity.dataset, 'eval-v1');
  assert.equal(run.identity.models, M);
  assert.equal(run.identity.harnesses, 'mini-swe-agent, opencode');
  assert.match(run.identity.support ?? '', /opencode: experimental \(no step limit\)/);
  assert.equal(run.tasks.length, 2);
  const a = run.tasks[0];
  assert.equal(a.attempts.length, 4);
  assert.deepEqual(a.attempts.map((x) => x.id), [`a#${cellA}#1`, `a#${cellA}#2`, `a#${cellB}#1`, `a#${cellB}#2`]);
  assert.deepEqual(a.attempts.map((x) => x.outcome), ['failed', 'passed', 'passed', 'failed']);
  assert.equal(a.attempts[0].cell, cellA);
  assert.equal(a.attempts[0].nTurns, 12);
  assert.equal(a.attempts[0].durationSec, 41.2);
  assert.equal(a.attempts[2].details?.tier, 'experimental: no step limit');
  assert.equal(a.details?.difficulty, 'easy');
  const b = run.tasks[1];
  const infra = b.attempts.filter((x) => x.cell === cellB);
  assert.deepEqual(infra.map((x) => [x.outcome, x.reward, x.failure?.reason]),
    [['infra-error', null, 'the verifier never ran'], ['infra-error', null, 'the verifier never ran']]);
  assert.deepEqual(run.recorded?.k_max, 2);
});

test('a trace on disk is present evidence; a referenced trace that is gone is missing and a problem', async () => {
  const d = makeProject(tmp());
  fs.rmSync(`${d}/traces/a-A-2.json`);
  const run = await readViewerDataset(nfs, d);
  const [first, second] = run.tasks[0].attempts;
  assert.deepEqual(first.evidence.map((e) => [e.kind, e.present]), [['trace', true]]);
  assert.equal(first.missing.length, 0);
  assert.deepEqual(second.missing, [`${d}/traces/a-A-2.json`]);
  const p = run.problems.find((x) => x.code === 'missing-trace');
  assert.ok(p);
  assert.deepEqual(p.jsonPath, ['tasks', 0, 'cells', cellA, 'attempts', 1, 'trace']);
  assert.equal(p.file, `${d}/summary.json`);
  assert.ok(p.line && p.line > 1);
  // The attempt b never had a trace: nothing is missing for it.
  assert.equal(run.tasks[1].attempts[0].missing.length, 0);
});

test('traces named outside traces/ or not plainly: found where they resolve, missing ones said in document order', async () => {
  const root = tmp();
  const d = `${root}/projects/data-agent/datasets/eval-v1`;
  const sum = summary();
  const tasks = sum.tasks as { cells: Record<string, { attempts: { trace?: string }[] }> }[];
  // a: ./traces/ (not plain: resolved), extra/ present, extra/ gone; b: traces/ gone, ../x outside the dataset.
  tasks[0].cells[cellA].attempts[0].trace = './traces/a-A-1.json';
  tasks[0].cells[cellA].attempts[1].trace = 'extra/here.json';
  tasks[0].cells[cellB].attempts[0].trace = 'extra/gone.json';
  tasks[0].cells[cellB].attempts[1].trace = 'traces/nothing.json';
  tasks[1].cells[cellA].attempts[0].trace = '../outside.json';
  makeProject(root, sum);
  write(`${d}/extra/here.json`, { task_id: 'a', messages: [] });
  const run = await readViewerDataset(nfs, d);
  const [a1, a2, b1, b2] = run.tasks[0].attempts;
  assert.deepEqual([a1, a2, b1, b2].map((x) => x.evidence.map((e) => [e.label, e.path, e.present])), [
    [['a-A-1.json', `${d}/traces/a-A-1.json`, true]],
    [['here.json', `${d}/extra/here.json`, true]],
    [['gone.json', `${d}/extra/gone.json`, false]],
    [['nothing.json', `${d}/traces/nothing.json`, false]],
  ]);
  assert.deepEqual(b1.missing, [`${d}/extra/gone.json`]);
  assert.equal(b1.evidence[0].namedBy, 'summary.json names it');
  assert.deepEqual(run.problems.filter((p) => p.code === 'missing-trace' || p.code === 'outside-run').map((p) => [p.code, p.jsonPath]), [
    ['missing-trace', ['tasks', 0, 'cells', cellB, 'attempts', 0, 'trace']],
    ['missing-trace', ['tasks', 0, 'cells', cellB, 'attempts', 1, 'trace']],
    ['outside-run', ['tasks', 1, 'cells', cellA, 'attempts', 0, 'trace']],
  ]);
  assert.equal(run.tasks[1].attempts[0].evidence[0].outside, true);
});

test('recorded aggregates that agree with the tasks raise nothing; ones that disagree are warnings at their path', async () => {
  const ok = await readViewerDataset(nfs, makeProject(tmp()));
  assert.deepEqual(ok.problems.filter((p) => p.code === 'aggregate-mismatch'), []);

  const bad = summary({
    summary: { tasks_total: 2, tasks_any_pass: 1, attempts_total: 8, attempts_passed: 2, n_all_infra: 1 },
    by_model: [{ model: M, cells: 4, 'pass@1': 0.5, 'pass@2': 0.667, n_measured: 3 }],
  });
  (bad.tasks as { cells: Record<string, { passed_at: number | null }> }[])[0].cells[cellA].passed_at = 1;
  const run = await readViewerDataset(nfs, makeProject(tmp(), bad));
  const paths = run.problems.filter((p) => p.code === 'aggregate-mismatch').map((p) => p.jsonPath);
  assert.deepEqual(paths, [
    ['tasks', 0, 'cells', cellA, 'passed_at'],
    ['summary', 'n_all_infra'],
    ['by_model', 0, 'pass@1'],
  ]);
  assert.ok(run.problems.every((p) => p.code !== 'aggregate-mismatch' || p.severity === 'warning'));
});

test('a summary.json that does not parse is a problem with line and column; the dataset still appears', async () => {
  const root = tmp();
  const d = makeProject(root);
  write(`${d}/summary.json`, '{\n  "k_max": 2,\n  "tasks": [\n    {"id": "a",}\n  ]\n}\n');
  const run = await readViewerDataset(nfs, d);
  assert.equal(run.tasks.length, 0);
  const p = run.problems.find((x) => x.code === 'parse-error');
  assert.ok(p);
  assert.equal(p.line, 4);
  assert.equal(p.column, 16);
});

test('wrong types are schema warnings with their JSON path, and the rest is still read', async () => {
  const s = summary();
  (s.tasks as Record<string, unknown>[])[1].cells = { [cellA]: { attempts: [{ attempt: 1, reward: 'zero' }] } };
  const run = await readViewerDataset(nfs, makeProject(tmp(), s));
  const p = run.problems.find((x) => x.code === 'schema');
  assert.ok(p);
  assert.deepEqual(p.jsonPath, ['tasks', 1, 'cells', cellA, 'attempts', 0, 'reward']);
  assert.equal(run.tasks[1].attempts[0].reward, null);
  assert.equal(run.tasks[0].attempts.length, 4);
});

test('a training run: steps, last metrics, bad lines by number, and at most a few zero-advantage notes', async () => {
  const root = tmp();
  makeProject(root);
  const r = `${root}/projects/data-agent/runs/grpo-1`;
  write(`${r}/run.json`, { run_id: 'grpo-1', label: 'GRPO one', model: M });
  const rows = [
    { step: 1, reward: 0.5, reward_std: 0.1, loss: 0.3 },
    { step: 2, reward: 0.5, reward_std: 0, loss: 0.3 },
    'not json',
    { step: 3, reward: 1, reward_std: 0 },
    { step: 4, reward: 1, reward_std: 0 },
    { step: 5, reward: 1, reward_std: 0 },
    { step: 6, reward: 0.9, reward_std: 0.2, kl: 0.03 },
  ];
  write(`${r}/train/metrics.jsonl`, rows.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n');
  const run = await readViewerTrainingRun(nfs, r);
  assert.equal(run.kind, 'viewer-data');
  assert.equal(run.label, 'Data-Agent Bench / GRPO one');
  assert.equal(run.tasks.length, 0);
  assert.equal(run.training?.steps, 6);
  assert.equal(run.training?.last?.step, 6);
  assert.equal(run.training?.last?.kl, 0.03);
  const bad = run.problems.find((p) => p.code === 'parse-error');
  assert.equal(bad?.line, 3);
  const flat = run.problems.filter((p) => p.code === 'zero-advantage');
  assert.equal(flat.length, 4); // three steps named, then one "more" note
  assert.match(flat[0].message, /step 2 teaches nothing \(zero advantage\)/);
  assert.equal(flat[0].severity, 'info');
  assert.match(flat[3].message, /^1 more steps/);
  assert.deepEqual(run.files.map((f) => [f.key, f.present]), [['project', true], ['run', true], ['metrics', true]]);
});

test('a training run without metrics has zero steps and no crash', async () => {
  const root = tmp();
  makeProject(root);
  const r = `${root}/projects/data-agent/runs/empty`;
  write(`${r}/run.json`, '{}');
  const run = await readViewerTrainingRun(nfs, r);
  assert.equal(run.training?.steps, 0);
  assert.equal(run.files.find((f) => f.key === 'metrics')?.present, false);
});
