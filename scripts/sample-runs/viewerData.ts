// Writes a viewer data dir as docs/formats.md#viewer-data lays it out: projects/<id>/project.json,
// datasets/<id>/{dataset.json, summary.json, traces/<id>.json} and runs/<id>/{run.json, train/metrics.jsonl}.
// The summary's aggregates (summary, by_model, by_harness, passed_at) are computed from the tasks: pass@k is the
// unbiased estimator over measured attempts, null rewards are left out and an all-null task counts in n_all_infra.
import * as path from 'node:path';
import { passAtKEstimate, passedAt } from '../../src/core/passAtK';
import type { ViewerAttemptSpec, ViewerDataSpec, ViewerDatasetSpec, ViewerRunSpec, ViewerTaskSpec } from './viewerSpec';
import { ChunkedWriter, Prng, isoZ, mkdirp, prngFor, round, writeJson } from './util';

export type { ViewerAttemptSpec, ViewerDataSpec, ViewerDatasetSpec, ViewerRunSpec, ViewerTaskSpec } from './viewerSpec';
export { viewerEveryCase, viewerLarge } from './viewerSpec';

const PASS = 1.0;
const T0 = 1787400000;

export interface ViewerDataResult {
  projectDir: string;
  /** Dataset dirs by id. */
  datasets: Record<string, string>;
  /** Trace paths (absolute) referenced by a cell but deliberately not written. */
  missingTraces: string[];
}

function measured(xs: ViewerAttemptSpec[]): number[] {
  return xs.flatMap((x) => (typeof x.reward === 'number' ? [x.reward] : []));
}

/** pass@k of one cell: null when no attempt was measured. */
function cellPassAtK(xs: ViewerAttemptSpec[], k: number): number | null {
  const m = measured(xs);
  if (!m.length) return null;
  return passAtKEstimate(m.length, m.filter((r) => r >= PASS).length, k);
}

interface CellRef { task: ViewerTaskSpec; key: string; model: string; harness: string; attempts: ViewerAttemptSpec[]; turns: (number | null)[] }

function breakdown(axis: 'model' | 'harness', name: string, cells: CellRef[], kMax: number): Record<string, unknown> {
  const mine = cells.filter((c) => c[axis] === name && c.attempts.length > 0);
  const scored = mine.map((c) => ({ p1: cellPassAtK(c.attempts, 1), pk: cellPassAtK(c.attempts, kMax) })).filter((s) => s.p1 !== null);
  const mean = (xs: number[]) => (xs.length ? round(xs.reduce((x, y) => x + y, 0) / xs.length) : null);
  const turns = mine.flatMap((c) => c.turns.filter((t): t is number => typeof t === 'number'));
  const out: Record<string, unknown> = { [axis]: name, cells: mine.length, 'pass@1': mean(scored.map((s) => s.p1 as number)) };
  if (kMax > 1) out[`pass@${kMax}`] = mean(scored.map((s) => s.pk as number));
  out.n_measured = scored.length;
  out.mean_turns = turns.length ? round(turns.reduce((x, y) => x + y, 0) / turns.length, 1) : null;
  return out;
}

function traceDoc(task: ViewerTaskSpec, model: string, harness: string, attempt: number, x: ViewerAttemptSpec, nTurns: number | null,
  elapsed: number, rng: Prng): Record<string, unknown> {
  const passed = typeof x.reward === 'number' && x.reward >= PASS;
  const predicted = x.reward === null ? null : passed ? task.answer ?? '' : `${task.answer ?? ''}?`.replace(/^\?$/, 'unknown');
  const messages: Record<string, unknown>[] = [
    { role: 'user', content: task.question ?? `Solve ${task.id}.` },
    { role: 'assistant', content: 'Let me look at the data first.',
      tool_calls: [{ id: `call_${attempt}_1`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'head -5 /data/table.csv' }) } }] },
    { role: 'tool', tool_call_id: `call_${attempt}_1`, content: 'id,score,region\n1,0.41,EMEA\n2,0.38,APAC' },
  ];
  if (x.reward === null) messages.push({ role: 'tool', content: 'sandbox exited with code 137 before an answer was given' });
  else messages.push({ role: 'assistant', content: `The answer is ${predicted}.` });
  return {
    task_id: task.id, model, harness, attempt, reward: x.reward,
    reward_method: x.reward === null ? null : task.rewardMode === 'llm' ? 'llm' : passed ? (task.rewardMode ?? 'exact') : rng.pick(['exact', 'numeric', 'llm']),
    n_turns: nTurns, elapsed_sec: elapsed, gold: task.answer ?? null, predicted, messages,
  };
}

function writeDataset(dir: string, ds: ViewerDatasetSpec, seed: number, missing: string[]): void {
  mkdirp(dir);
  if (ds.label !== undefined || ds.notes !== undefined) writeJson(path.join(dir, 'dataset.json'), { label: ds.label ?? ds.id, notes: ds.notes ?? null });
  const cells: CellRef[] = [];
  const short = (m: string) => (m.split('/').pop() ?? m).toLowerCase().replace(/[^a-z0-9.]+/g, '-');
  const tasksOut = ds.tasks.map((task, index) => {
    const cellsOut: Record<string, unknown> = {};
    for (const key of Object.keys(task.cells)) {
      const [model, harness] = key.split('|');
      const rng = prngFor(seed, `viewer:${ds.id}:${task.id}:${key}`);
      const attempts = task.cells[key];
      const turns: (number | null)[] = [];
      const list = attempts.map((x, i) => {
        const attempt = i + 1;
        const nTurns = x.reward === null ? null : x.nTurns ?? rng.int(4, 24);
        const elapsed = x.elapsedSec ?? round(10 + rng.next() * 90, 1);
        turns.push(nTurns);
        const entry: Record<string, unknown> = { attempt, reward: x.reward, n_turns: nTurns, elapsed_sec: elapsed };
        const kind = x.trace ?? 'present';
        if (kind !== 'none') {
          const rel = `traces/${task.id}-${short(model)}-${short(harness)}-${attempt}.json`;
          entry.trace = rel;
          if (kind === 'present') writeJson(path.join(dir, rel), traceDoc(task, model, harness, attempt, x, nTurns, elapsed, rng));
          else missing.push(rel);
        }
        return entry;
      });
      cellsOut[key] = { passed_at: passedAt(attempts.map((x) => x.reward)), attempts: list };
      cells.push({ task, key, model, harness, attempts, turns });
    }
    return { id: task.id, index, difficulty_level: task.difficulty ? ['easy', 'medium', 'hard'].indexOf(task.difficulty) : null,
      difficulty: task.difficulty ?? null, question: task.question ?? null, answer: task.answer ?? null, reward_mode: task.rewardMode ?? null, cells: cellsOut };
  });
  const all = ds.tasks.map((t) => Object.values(t.cells).flat());
  const summary = {
    k_max: ds.kMax,
    models: ds.models,
    harnesses: ds.harnesses,
    summary: {
      tasks_total: ds.tasks.length,
      tasks_any_pass: all.filter((xs) => xs.some((x) => typeof x.reward === 'number' && x.reward >= PASS)).length,
      attempts_total: all.reduce((n, xs) => n + xs.length, 0),
      attempts_passed: all.reduce((n, xs) => n + xs.filter((x) => typeof x.reward === 'number' && x.reward >= PASS).length, 0),
      n_all_infra: all.filter((xs) => xs.length > 0 && xs.every((x) => x.reward === null)).length,
    },
    by_model: ds.models.map((m) => breakdown('model', m, cells, ds.kMax)),
    by_harness: ds.harnesses.map((h) => breakdown('harness', h, cells, ds.kMax)),
    tasks: tasksOut,
  };
  writeJson(path.join(dir, 'summary.json'), summary);
}

function writeRun(dir: string, projectId: string, run: ViewerRunSpec, seed: number): void {
  const rng = prngFor(seed, `viewer-run:${run.id}`);
  const start = T0 - run.steps * 60 - 600;
  writeJson(path.join(dir, 'run.json'), {
    run_id: run.id, label: run.label, project_id: projectId, model: run.model, harness: run.harness, dataset: run.dataset,
    started_at: isoZ(start), finished_at: run.live ? null : isoZ(start + run.steps * 50 + 30),
    config: { algorithm: 'grpo', group_size: 8, learning_rate: 1e-6, kl_coef: 0.02 },
  });
  const w = new ChunkedWriter(path.join(dir, 'train', 'metrics.jsonl'));
  let reward = 0.3 + rng.next() * 0.2;
  for (let step = 1; step <= run.steps; step++) {
    reward = Math.min(0.98, reward + rng.next() * 0.08 - 0.015);
    const flat = step === 2; // a step whose generations all scored the same: zero advantage, teaches nothing
    const row = { step, reward: round(reward, 3), reward_std: flat ? 0 : round(0.05 + rng.next() * 0.2, 3), loss: round(0.4 - step * 0.01 + rng.next() * 0.05, 3),
      ratio: round(0.999 + rng.next() * 0.002, 4), kl: round(0.01 + rng.next() * 0.04, 3), entropy: round(0.45 + rng.next() * 0.1, 2),
      n_rollouts: 8, n_unscorable: step % 3 === 0 ? 1 : 0, wall_s: round(40 + rng.next() * 15, 1) };
    if (run.live && step === run.steps) w.write(JSON.stringify(row).slice(0, 40)); // still being appended
    else w.line(row);
  }
  w.close();
}

export async function generateViewerData(dataDir: string, spec: ViewerDataSpec, opts: { seed?: number } = {}): Promise<ViewerDataResult> {
  const seed = opts.seed ?? 1;
  const projectDir = path.join(path.resolve(dataDir), 'projects', spec.projectId);
  mkdirp(projectDir);
  writeJson(path.join(projectDir, 'project.json'), {
    project_id: spec.projectId, label: spec.label, description: spec.description, source: spec.source ?? null, support: spec.support,
  });
  const result: ViewerDataResult = { projectDir, datasets: {}, missingTraces: [] };
  for (const ds of spec.datasets) {
    const dir = path.join(projectDir, 'datasets', ds.id);
    const missing: string[] = [];
    writeDataset(dir, ds, seed, missing);
    result.datasets[ds.id] = dir;
    result.missingTraces.push(...missing.map((m) => path.join(dir, m)));
  }
  for (const run of spec.runs) writeRun(path.join(projectDir, 'runs', run.id), spec.projectId, run, seed);
  return result;
}
