// The Compare Runs and Compare Attempts panels' view models (vscode-free): the core comparison (src/core/compare) cut
// to what the panels show (src/protocol/compareRuns.ts, compareAttempts.ts), and the way back from a row of a panel
// to the run and attempt it stands for.
import type { Attempt, Run, Task } from '../core/model';
import { attemptOrigin, cellText, compareSides, sideLetter, sidesOf, type CompareSide, type TrajectoryAlignment } from '../core/compare';
import type { CompareRunsModel } from '../protocol/compareRuns';
import type { CompareAttemptsModel, AttemptSide } from '../protocol/compareAttempts';

/** Task rows sent at most (the list is virtualised; a comparison of more tasks says how many were left out). */
export const MAX_TASK_ROWS = 20_000;
const MAX_SUMMARY = 300;

export function compareRunsModel(runs: readonly Run[], merge: boolean): { model: CompareRunsModel; sides: CompareSide[] } {
  const plain = sidesOf(runs);
  const sides = merge ? sidesOf(runs, { merge: true }) : plain;
  const c = compareSides(sides);
  const model: CompareRunsModel = {
    runIds: runs.map((r) => r.id),
    merge,
    canMerge: sidesOf(runs, { merge: true }).length !== plain.length,
    mergeNote: c.mergeNote,
    k: c.k,
    commonTasks: c.commonTasks,
    sides: c.sides.map((s, i) => ({
      letter: sideLetter(i), label: s.label, kind: s.kind, mergedFrom: s.mergedFrom,
      all: pick(s.all), common: pick(s.common),
      usage: { inputTokens: s.usage.inputTokens, outputTokens: s.usage.outputTokens, cachedTokens: s.usage.cachedTokens, costUsd: s.usage.costUsd, durationSec: s.usage.durationSec },
      diff: s.diff, counts: s.counts,
    })),
    tasks: c.tasks.slice(0, MAX_TASK_ROWS).map((t) => ({
      id: t.id, label: t.label, change: t.change, delta: t.delta,
      cells: t.cells.map((cell) => cell && {
        outcome: cell.outcome, attempts: cell.attempts, measured: cell.measured, passed: cell.passed,
        meanReward: cell.meanReward, passAtK: cell.passAtK, text: cellText(cell),
      }),
    })),
    tasksOmitted: Math.max(0, c.tasks.length - MAX_TASK_ROWS),
  };
  return { model, sides };
}

function pick(a: { tasks: number; attempts: number; measured: number; passed: number; allInfra: number; passAt1: number | null; passAtK: number | null; meanReward: number | null }) {
  return { tasks: a.tasks, attempts: a.attempts, measured: a.measured, passed: a.passed, allInfra: a.allInfra, passAt1: a.passAt1, passAtK: a.passAtK, meanReward: a.meanReward };
}

export interface AttemptRef { runId: string; attemptId: string }

/** The first attempt of `taskId` on a side, as the run and attempt it was read as. */
export function firstAttemptOf(side: CompareSide | undefined, taskId: string): AttemptRef | undefined {
  const a = side?.tasks.find((t) => t.id === taskId)?.attempts[0];
  return a && side ? attemptOrigin(side, a.id) : undefined;
}

/** The task and attempt of a ref in the runs given, or undefined. */
export function resolveAttempt(runs: (id: string) => Run | undefined, ref: AttemptRef): { run: Run; task: Task; attempt: Attempt } | undefined {
  const run = runs(ref.runId);
  if (!run) return undefined;
  for (const task of run.tasks) {
    const attempt = task.attempts.find((a) => a.id === ref.attemptId);
    if (attempt) return { run, task, attempt };
  }
  return undefined;
}

const clip = (s: string) => (s.length > MAX_SUMMARY ? `${s.slice(0, MAX_SUMMARY)}…` : s);

/** The Compare Attempts model: the alignment, with each side's attempt named. */
export function compareAttemptsModel(
  task: string, left: { title: string; attempt: Attempt }, right: { title: string; attempt: Attempt }, al: TrajectoryAlignment,
): CompareAttemptsModel {
  const side = (s: { title: string; attempt: Attempt }, t: TrajectoryAlignment['left']): AttemptSide => ({
    title: s.title, outcome: s.attempt.outcome, reward: s.attempt.reward, file: t.file, unavailable: t.unavailable,
    steps: t.steps.map((st) => ({ ...st, summary: clip(st.summary), tools: st.tools.slice(0, 100).map((x) => x.slice(0, 500)) })),
    promptTokens: t.promptTokens, completionTokens: t.completionTokens, costUsd: t.costUsd, elapsedMs: t.elapsedMs,
  });
  return {
    task, left: side(left, al.left), right: side(right, al.right),
    rows: al.rows.map((r) => [r.kind, r.left, r.right]),
    firstDivergence: al.firstDivergence, counts: al.counts,
  };
}
