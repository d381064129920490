// Runs tree responsiveness: a synthetic run of 10k tasks × 4 attempts (with evidence) and the provider's pure part
// (nodes.ts + describe.ts, what getChildren + getTreeItem compute). Prints the median time of root children and of
// the run's first-level children (every task node described), with and without a filter / sort, each as a ratio to
// a floor measured in the same run: a plain array map over the same tasks. Target (issue 4): root children < 100 ms.
// Run: npm run bench:tree  (env TASKS, ATTEMPTS, ROUNDS to change the size)
import type { Attempt, Evidence, Outcome, Run, Task } from '../src/core/model';
import { childrenOf, makeRunNode, rootChildren, type TreeNode } from '../src/views/tree/nodes';
import { describe } from '../src/views/tree/describe';
import { defaultViewState, type ViewState } from '../src/views/tree/viewState';
import { tooltipOf } from '../src/views/tree/tooltips';

const TASKS = Number(process.env.TASKS) || 10_000;
const ATTEMPTS = Number(process.env.ATTEMPTS) || 4;
const ROUNDS = Number(process.env.ROUNDS) || 15;

const OUTS: Outcome[] = ['passed', 'failed', 'failed', 'agent-error', 'truncated', 'infra-error', 'missing', 'passed'];

function evidence(dir: string, present: boolean): Evidence[] {
  const f = (kind: Evidence['kind'], label: string, isDir = false): Evidence => ({ kind, label, path: `${dir}/${label}`, isDir, present });
  return [f('verifier-logs', 'verifier', true), f('test-stdout', 'test-stdout.txt'), f('reward-file', 'reward.txt'),
    { ...f('ctrf', 'ctrf.json'), failedTests: [{ name: 'test_a', message: 'assert 1 == 2' }] }, { ...f('trajectory', 'trajectory.json'), present }, f('artifacts', 'artifacts', true)];
}

function syntheticRun(id: number): Run {
  const tasks: Task[] = [];
  for (let t = 0; t < TASKS; t++) {
    const attempts: Attempt[] = [];
    for (let a = 0; a < ATTEMPTS; a++) {
      const outcome = OUTS[(t * 7 + a * 3) % OUTS.length];
      const dir = `/runs/r${id}/verifier/resources-session-${t}-${a}`;
      attempts.push({
        id: `task-${t}#${a}`, index: a, label: `#${a + 1}`, outcome,
        reward: outcome === 'passed' ? 1 : outcome === 'infra-error' || outcome === 'missing' ? null : 0,
        durationSec: 30 + ((t + a) % 300), dir, evidence: outcome === 'missing' ? [] : evidence(dir, a !== 2),
        missing: a === 2 ? [`${dir}/trajectory.json`] : [], tokens: { input: 1000, output: 200 },
      });
    }
    tasks.push({ id: `task-${String(t).padStart(5, '0')}`, index: t, label: `task-${t}`, attempts });
  }
  return {
    id: `nemo-gym:/runs/r${id}/rollouts_run_summary.json`, kind: 'nemo-gym', root: `/runs/r${id}`, anchor: `/runs/r${id}/rollouts_run_summary.json`,
    label: `bench run ${id}`, identity: { taskset: 'bench' }, state: 'complete', files: [
      { key: 'rollouts', label: 'rollouts', path: `/runs/r${id}/rollouts.jsonl`, present: true },
      { key: 'failures', label: 'failures', path: `/runs/r${id}/rollouts_failures.jsonl`, present: false },
    ],
    problems: [{ file: `/runs/r${id}/rollouts_run_summary.json`, severity: 'error', code: 'missing-path', message: 'x', jsonPath: ['missing_paths', 0] }],
    unvalidated: [], skipped: [], tasks,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => unknown): number {
  const xs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

const runs = [syntheticRun(1), syntheticRun(2), syntheticRun(3)];
const big = runs[0];
const byFolder = [{ folder: '/runs', name: 'runs', runs }];
const noFs = async () => [] as [string, 'file' | 'dir' | 'other'][];

function level(state: ViewState): number {
  const node = makeRunNode(big);
  const kids = childrenOf(node, { state, listDir: noFs }) as TreeNode[];
  let n = 0;
  for (const k of kids) n += describe(k).label.length > 0 ? 1 : 0;
  return n;
}

// Floor: what any tree over these tasks costs at least (one object per task with its label and a count).
const floor = time(() => big.tasks.map((t) => ({ id: t.id, label: t.label, description: `${t.attempts.length}` })));
const rootMs = time(() => rootChildren(byFolder, defaultViewState(), (r) => makeRunNode(r)).map((n) => describe(n)));
// Cold: fresh run objects every round, so every run's counts are computed again (as after a refresh).
const rootColdMs = time(() => rootChildren([{ ...byFolder[0], runs: runs.map((r) => ({ ...r })) }], defaultViewState(), (r) => makeRunNode(r)).map((n) => describe(n)));
const levelMs = time(() => level(defaultViewState()));
const filteredMs = time(() => level({ ...defaultViewState(), outcomes: new Set<Outcome>(['failed', 'missing']), text: '1' }));
const sortedMs = time(() => level({ ...defaultViewState(), sort: 'failures' }));
const taskNode = (childrenOf(makeRunNode(big), { state: defaultViewState(), listDir: noFs }) as TreeNode[])[0];
const attemptsMs = time(() => (childrenOf(taskNode, { state: defaultViewState(), listDir: noFs }) as TreeNode[]).map((n) => describe(n)));
const tooltipMs = time(() => tooltipOf(makeRunNode(big)));

const fmt = (ms: number) => `${ms.toFixed(2).padStart(8)} ms  ${(ms / floor).toFixed(1).padStart(6)}× floor`;
console.log(`tree bench: ${runs.length} runs of ${TASKS} tasks × ${ATTEMPTS} attempts, median of ${ROUNDS} rounds`);
console.log(`  floor (array map over ${TASKS} tasks)     ${floor.toFixed(2).padStart(8)} ms`);
console.log(`  root children (runs, described)       ${fmt(rootMs)}   target < 100 ms: ${rootMs < 100 ? 'ok' : 'MISSED'}`);
console.log(`  root children, cold (counts computed)  ${fmt(rootColdMs)}   target < 100 ms: ${rootColdMs < 100 ? 'ok' : 'MISSED'}`);
console.log(`  run's children (${TASKS} tasks, described) ${fmt(levelMs)}`);
console.log(`  … filtered (outcome + text)           ${fmt(filteredMs)}`);
console.log(`  … sorted by failures                  ${fmt(sortedMs)}`);
console.log(`  a task's attempts (described)         ${fmt(attemptsMs)}`);
console.log(`  run tooltip (counts every attempt)    ${fmt(tooltipMs)}`);
