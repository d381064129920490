// Issue 2's walk through the Runs tree: click the Harbor icon, wait for the Runs view, then for one run of each kind
// (NeMo Gym, Harbor job, viewer data) expand the run, a task and an attempt, and check the attempt's evidence rows.
// What to expect is read from the workspace with the core readers (the same model the tree shows), so the scenario
// follows examples/ as it changes. Screenshots: screenshots/ui/overview-<step>.png.
import type { Attempt, Run, SourceKind, Task } from '../../../src/core/model';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import type { Scenario, UiContext } from '../driver';
import { runRow } from '../../../src/views/tree/describe';

const KINDS: { kind: SourceKind; name: string }[] = [
  { kind: 'nemo-gym', name: 'nemo' },
  { kind: 'harbor-job', name: 'harbor' },
  { kind: 'viewer-data', name: 'viewer' },
];

interface Pick { run: Run; tasks: { task: Task; attempt: Attempt }[] }

/** Runs of `kind` with a unique label, each with its tasks that have an attempt with evidence rows to show. */
function candidates(runs: Run[], kind: SourceKind): Pick[] {
  const labelCount = new Map<string, number>();
  for (const r of runs) labelCount.set(runRow(r).label, (labelCount.get(runRow(r).label) ?? 0) + 1);
  const out: Pick[] = [];
  for (const run of runs) {
    if (run.kind !== kind || labelCount.get(runRow(run).label) !== 1) continue;
    const tasks: Pick['tasks'] = [];
    for (const task of run.tasks) {
      const attempt = task.attempts.find((a) => a.evidence.length > 0);
      if (attempt && task.attempts.filter((a) => a.label === attempt.label).length === 1) tasks.push({ task, attempt });
    }
    if (tasks.length) out.push({ run, tasks });
  }
  return out;
}

async function walk(ctx: UiContext, step: string, pick: Pick): Promise<void> {
  const { run } = pick;
  const row = ctx.treeItem(runRow(run).label);
  await row.scrollIntoViewIfNeeded({ timeout: 20_000 }).catch(() => undefined);
  await ctx.expand(row);
  // The tree lists only what fits: once task rows show, take the first task (with evidence) whose row is rendered.
  const firstShown = async () => {
    for (const t of pick.tasks) if (await ctx.treeItem(t.task.label || t.task.id).isVisible()) return t;
    return undefined;
  };
  await ctx.until(firstShown, `no task row of run "${run.label}" appeared (expected one of: ${pick.tasks.slice(0, 5).map((t) => t.task.label || t.task.id).join(', ')})`);
  await ctx.page.waitForTimeout(500); // let the list finish rendering so the choice does not depend on timing
  const chosen = await firstShown();
  if (!chosen) throw new Error(`the task rows of run "${run.label}" disappeared`);
  const { task, attempt } = chosen;
  await ctx.shot(`${step}-run`);
  const taskRow = await ctx.expand(ctx.treeItem(task.label || task.id));
  const attemptRow = await ctx.expand(ctx.treeItem(attempt.label));
  ctx.log(`${run.kind}: "${run.label}" › "${task.label || task.id}" › "${attempt.label}"`);
  for (const ev of attempt.evidence.slice(0, 6)) {
    await ctx.treeItem(ev.label).waitFor({ state: 'visible', timeout: 15_000 })
      .catch(() => { throw new Error(`evidence row "${ev.label}" of ${run.label} › ${task.label} › ${attempt.label} did not appear`); });
  }
  await ctx.shot(`${step}-attempt`);
  // Fold back so the next run's rows fit on screen.
  await ctx.collapse(attemptRow);
  await ctx.collapse(taskRow);
  await ctx.collapse(row);
}

export const scenario: Scenario = {
  name: 'overview',
  async run(ctx) {
    const runs = await loadRuns(new NodeFs(), [ctx.workspace]);
    const picks = KINDS.map(({ kind, name }) => {
      const c = candidates(runs, kind);
      if (!c.length) throw new Error(`examples/ has no ${kind} run with an attempt that has evidence (runs: ${runs.map((r) => `${r.kind}:${r.label}`).join(', ') || 'none'})`);
      return { name, pick: c[0] };
    });
    await ctx.openHarborView();
    await ctx.until(async () => (await ctx.treeRowTexts()).length > 0, 'the Runs tree shows no rows', 60_000);
    for (const { pick } of picks) {
      await ctx.treeItem(runRow(pick.run).label).waitFor({ state: 'visible', timeout: 30_000 })
        .catch(() => { throw new Error(`no tree row for run "${pick.run.label}" (${pick.run.kind})`); });
    }
    await ctx.shot('1-runs');
    for (const [i, { name, pick }] of picks.entries()) await walk(ctx, `${i + 2}-${name}`, pick);
  },
};
