// "Compare Runs" (two or more runs selected in the Runs tree, or picked from the palette; one run of several cells
// compares its cells) and "Compare with…" (on an
// attempt: two attempts selected, or another attempt of the same task picked from any run). Run ids / attempt refs
// are accepted as arguments too (links, other commands).
import * as vscode from 'vscode';
import type { Run } from '../../core/model';
import { RUN_KIND_LABELS, formatReward, plural } from '../../core/format';
import { countRun } from '../../core/model';
import type { AttemptNode, RunNode, TreeNode } from '../../views/tree/nodes';
import type { AttemptRef } from '../../views/compareModel';
import { sidesOf } from '../../core/compare';
import { isTreeNode } from '../treeProvider';
import type { HostContext } from '../hostContext';
import { CompareRunsPanel } from '../panels/compareRunsPanel';
import { CompareAttemptsPanel } from '../panels/compareAttemptsPanel';

/** The nodes a tree command acts on: the selection VS Code passes with a multi-selection, else the tree's, else the one clicked. */
function selectedNodes(ctx: HostContext, arg: unknown, rest: unknown[]): TreeNode[] {
  const passed = Array.isArray(rest[0]) ? rest[0].filter(isTreeNode) : [];
  if (passed.length) return passed;
  const sel = [...ctx.treeView.selection];
  if (isTreeNode(arg)) return sel.some((n) => n.id === arg.id) ? sel : [arg];
  return arg === undefined ? sel : [];
}

async function pickRuns(ctx: HostContext, preselected: ReadonlySet<string>): Promise<Run[] | undefined> {
  const runs = ctx.store.runs().sort((a, b) => Number(preselected.has(b.id)) - Number(preselected.has(a.id)) || a.label.localeCompare(b.label));
  if (runs.length < 2) {
    void vscode.window.showInformationMessage(runs.length ? 'Only one run was found in this workspace: there is nothing to compare it with.' : 'No run was found in this workspace.');
    return undefined;
  }
  const items = runs.map((run) => {
    const c = countRun(run);
    return {
      label: run.label, picked: preselected.has(run.id),
      description: `${RUN_KIND_LABELS[run.kind]} · ${plural(run.tasks.length, 'task')} · ${c.passed}/${c.measured} passed`,
      detail: vscode.workspace.asRelativePath(run.anchor), run,
    };
  });
  const picks = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: 'Compare which runs? (two or more; the first is the baseline)', matchOnDescription: true, matchOnDetail: true });
  if (!picks) return undefined;
  if (picks.length < 2) { void vscode.window.showInformationMessage('Pick two or more runs to compare.'); return undefined; }
  return picks.map((p) => p.run);
}

/** Opens Compare Runs; returns the panel's key (the run ids, one a line), undefined when cancelled. */
export async function compareRuns(ctx: HostContext, arg?: unknown, ...rest: unknown[]): Promise<string | undefined> {
  await ctx.store.ensureLoaded();
  let runs: Run[] | undefined;
  if (Array.isArray(arg) && arg.every((x) => typeof x === 'string')) {
    runs = (arg as string[]).map((id) => ctx.store.get(id)).filter((r): r is Run => r !== undefined);
  } else {
    const nodes = selectedNodes(ctx, arg, rest).filter((n): n is RunNode => n.kind === 'run');
    runs = nodes.map((n) => ctx.store.get(n.run.id) ?? n.run);
  }
  // One run whose attempts fall into several cells (viewer data model|harness, a Harbor job of several agents) compares its cells.
  const cellsOfOne = runs.length === 1 && sidesOf(runs).length >= 2;
  if (runs.length < 2 && !cellsOfOne) runs = await pickRuns(ctx, new Set(runs.map((r) => r.id)));
  if (!runs) return undefined;
  return CompareRunsPanel.show(ctx, runs).key;
}

function isRef(x: unknown): x is AttemptRef {
  return !!x && typeof x === 'object' && typeof (x as AttemptRef).runId === 'string' && typeof (x as AttemptRef).attemptId === 'string';
}

const refOf = (n: AttemptNode): AttemptRef => ({ runId: n.run.id, attemptId: n.attempt.id });

async function pickOther(ctx: HostContext, n: AttemptNode): Promise<AttemptRef | undefined> {
  const items: (vscode.QuickPickItem & { ref: AttemptRef })[] = [];
  for (const run of ctx.store.runs()) {
    const task = run.tasks.find((t) => t.id === n.task.id);
    for (const a of task?.attempts ?? []) {
      if (run.id === n.run.id && a.id === n.attempt.id) continue;
      items.push({
        label: `${a.label} ${a.outcome}`, description: `reward ${formatReward(a.reward)}${a.cell ? ` · ${a.cell}` : ''}`,
        detail: run.id === n.run.id ? `${run.label} (same run)` : run.label, ref: { runId: run.id, attemptId: a.id },
      });
    }
  }
  if (!items.length) {
    void vscode.window.showInformationMessage(`No other attempt of ${n.task.label || n.task.id} was found in this workspace.`);
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder: `Compare ${n.task.label || n.task.id} ${n.attempt.label} (${n.run.label}) with…`, matchOnDetail: true, matchOnDescription: true });
  return pick?.ref;
}

/** Opens Compare Attempts; returns the panel's key, undefined when cancelled. */
export async function compareAttempts(ctx: HostContext, arg?: unknown, ...rest: unknown[]): Promise<string | undefined> {
  await ctx.store.ensureLoaded();
  if (isRef(arg) && isRef(rest[0])) return CompareAttemptsPanel.show(ctx, arg, rest[0]).key;
  const nodes = selectedNodes(ctx, arg, rest).filter((n): n is AttemptNode => n.kind === 'attempt');
  if (nodes.length >= 2) {
    const first = isTreeNode(arg) && arg.kind === 'attempt' ? nodes.find((n) => n.id === arg.id) ?? nodes[0] : nodes[0];
    const other = nodes.find((n) => n !== first)!;
    return CompareAttemptsPanel.show(ctx, refOf(first), refOf(other)).key;
  }
  const one = nodes[0];
  if (!one) { void vscode.window.showInformationMessage('Select an attempt in the Runs view (or two) to compare.'); return undefined; }
  const other = await pickOther(ctx, one);
  return other ? CompareAttemptsPanel.show(ctx, refOf(one), other).key : undefined;
}
