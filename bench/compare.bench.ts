// Attempt alignment at scale (docs/compare.md#attempts): two generated 10,000-step ATIF trajectories, read into the
// trajectory view model, aligned step by step. Printed as the median of ROUNDS and as a ratio to a floor measured in
// the same run — a plain pass over both step arrays (each step's key built once). Cases: identical; scattered edits
// (every 50th step's command changed, every 200th step inserted); nothing in common (another seed); the hard case
// for an O(ND) diff, the same few commands in another random order on each side. Target: < 2 s each. Then two runs
// of TASKS tasks × 4 attempts compared task by task (compareRuns) and the Compare Runs panel's model (its JSON size).
// Run: npm run bench  (env STEPS, ROUNDS)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { terminusTrajectory } from '../scripts/sample-runs/atif';
import { Prng } from '../scripts/sample-runs/util';
import { NodeFs } from '../src/core/fs/nodeFs';
import { loadTrajectory, type TrajectoryView } from '../src/core/trajectory';
import { alignTrajectories, compareRuns, stepKey } from '../src/core/compare';
import type { Outcome, Run } from '../src/core/model';
import { compareRunsModel } from '../src/views/compareModel';

const STEPS = Number(process.env.STEPS) || 10_000;
const ROUNDS = Number(process.env.ROUNDS) || 5;
const TASKS = Number(process.env.TASKS) || 10_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Doc = { steps: Record<string, unknown>[] } & Record<string, unknown>;

function trajectory(seed: number): Doc {
  return terminusTrajectory({
    sessionId: `s${seed}`, modelName: 'p/m', instruction: 'Do it.', turns: STEPS - 3, complete: true, startSec: 1_787_000_000,
    rng: new Prng(seed), withCost: true,
  }).trajectory as Doc;
}

function edited(doc: Doc): Doc {
  const steps: Record<string, unknown>[] = [];
  doc.steps.forEach((s, i) => {
    if (i > 0 && i % 200 === 0) steps.push({ ...s, tool_calls: [{ tool_call_id: `ins_${i}`, function_name: 'bash_command', arguments: { keystrokes: `echo inserted ${i}\n` } }], observation: undefined });
    steps.push(i > 0 && i % 50 === 0 && Array.isArray(s.tool_calls) ? { ...s, tool_calls: [{ tool_call_id: `e_${i}`, function_name: 'python', arguments: { code: `print(${i})` } }], observation: undefined } : s);
  });
  return { ...doc, steps: steps.slice(0, STEPS).map((s, i) => ({ ...s, step_id: i + 1 })) };
}

/** The same few commands, in a random order of its own on each side: many equal keys, long edit path. */
function fewKeys(doc: Doc, seed: number): Doc {
  const rng = new Prng(seed);
  const cmds = ['ls', 'cat a', 'make', 'pytest', 'git status', 'grep x'];
  return { ...doc, steps: doc.steps.map((s, i) => (i === 0 ? s : { ...s, tool_calls: [{ tool_call_id: `f_${i}`, function_name: 'bash_command', arguments: { keystrokes: rng.pick(cmds) } }], observation: undefined })) };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-bench-'));
  try {
    const fsPort = new NodeFs();
    const view = async (name: string, doc: Doc): Promise<TrajectoryView> => {
      const file = path.join(dir, `${name}.json`);
      fs.writeFileSync(file, JSON.stringify(doc));
      const v = await loadTrajectory(fsPort, file.split(path.sep).join('/'));
      if (v.steps.length !== doc.steps.length) throw new Error(`${name}: ${v.steps.length} steps read of ${doc.steps.length}`);
      return v;
    };
    const base = trajectory(1);
    const a = await view('a', base);
    const cases: [string, TrajectoryView, TrajectoryView][] = [
      ['identical', a, await view('a2', base)],
      ['scattered edits', a, await view('b', edited(base))],
      ['nothing in common', a, await view('c', trajectory(2))],
      ['same few commands, shuffled', await view('d', fewKeys(base, 3)), await view('e', fewKeys(base, 4))],
    ];
    console.log(`two trajectories of ${a.steps.length} steps each`);
    const floors: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      let n = 0;
      for (const [, l, r] of cases) { for (const s of l.steps) n += stepKey(s).length; for (const s of r.steps) n += stepKey(s).length; }
      floors.push((performance.now() - t0) / cases.length);
      if (n < 0) console.log(n);
    }
    const floor = median(floors);
    console.log(`floor (one pass over both step arrays, keys built)  ${floor.toFixed(1)} ms`);
    for (const [name, l, r] of cases) {
      const times: number[] = [];
      let al = alignTrajectories(l, r);
      for (let i = 0; i < ROUNDS; i++) {
        const t0 = performance.now();
        al = alignTrajectories(l, r);
        times.push(performance.now() - t0);
      }
      const t = median(times);
      const fd = al.firstDivergence ? `first divergence row ${al.firstDivergence.row + 1}` : 'no divergence';
      console.log(`${name.padEnd(30)} ${t.toFixed(1).padStart(7)} ms  (${(t / floor).toFixed(1)}× floor, worst ${Math.max(...times).toFixed(0)} ms)  ` +
        `${al.counts.same} same, ${al.counts.changed} changed, ${al.counts.left + al.counts.right} one side; ${fd} — target < 2 s: ${Math.max(...times) < 2000 ? 'met' : 'NOT met'}`);
    }
    runsBench();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function syntheticRun(name: string, seed: number): Run {
  const rng = new Prng(seed);
  const outcomes: [Outcome, number | null][] = [['passed', 1], ['failed', 0], ['failed', 0], ['infra-error', null]];
  return {
    id: `harbor-job:/jobs/${name}`, kind: 'harbor-job', root: `/jobs/${name}`, anchor: `/jobs/${name}`, label: name, identity: { agent: 'a', model: name },
    state: 'complete', files: [], problems: [], unvalidated: [], skipped: [],
    tasks: Array.from({ length: TASKS }, (_, i) => ({
      id: `task-${String(i).padStart(5, '0')}`, label: `task-${i}`,
      attempts: Array.from({ length: 4 }, (__, k) => {
        const [outcome, reward] = rng.pick(outcomes);
        return { id: `task-${i}#${k}`, index: k, label: `#${k + 1}`, outcome, reward, evidence: [], missing: [], tokens: { input: 1000, output: 100 }, costUsd: 0.01, durationSec: 60 };
      }),
    })),
  };
}

function runsBench(): void {
  const a = syntheticRun('a', 1);
  const b = syntheticRun('b', 2);
  const floors: number[] = [];
  const times: number[] = [];
  const models: number[] = [];
  let bytes = 0;
  let regressed = 0;
  for (let i = 0; i < ROUNDS; i++) {
    let t0 = performance.now();
    let n = 0;
    for (const r of [a, b]) for (const t of r.tasks) for (const x of t.attempts) n += x.reward ?? 0;
    floors.push(performance.now() - t0);
    t0 = performance.now();
    regressed = compareRuns([a, b]).sides[1].counts.regressed;
    times.push(performance.now() - t0);
    t0 = performance.now();
    bytes = JSON.stringify(compareRunsModel([a, b], false).model).length;
    models.push(performance.now() - t0);
    if (n < 0) console.log(n);
  }
  const floor = median(floors);
  console.log(`\ntwo runs of ${TASKS} tasks × 4 attempts; floor (one pass over every attempt) ${floor.toFixed(1)} ms`);
  console.log(`compareRuns                    ${median(times).toFixed(1).padStart(7)} ms  (${(median(times) / floor).toFixed(1)}× floor)  ${regressed} tasks regressed`);
  console.log(`Compare Runs panel model + JSON ${median(models).toFixed(1).padStart(6)} ms  ${(bytes / 1048576).toFixed(2)} MB sent`);
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
