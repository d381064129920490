// Filter and sort commands of the Runs tree: by outcome (multi-select), by text, only problems, sort tasks; and the
// "Show more" row of a big run's tasks (or a task's attempts).
import * as vscode from 'vscode';
import { OUTCOMES, type Outcome } from '../../core/model';
import { OUTCOME_ICONS, OUTCOME_LABELS } from '../../views/outcomeStyle';
import type { TaskSort } from '../../views/tree/viewState';
import type { HostContext } from '../hostContext';
import { nodeOfArg } from './args';

export async function filterByOutcome(ctx: HostContext): Promise<void> {
  const current = ctx.treeProvider.state.outcomes;
  const items = OUTCOMES.map((o) => ({
    label: `$(${OUTCOME_ICONS[o].id.replace('~spin', '')}) ${OUTCOME_LABELS[o]}`, outcome: o, picked: current ? current.has(o) : false,
  }));
  const picks = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'Show attempts with these outcomes', placeHolder: 'None selected = every outcome' });
  if (!picks) return;
  ctx.treeProvider.setState({ outcomes: picks.length === 0 ? null : new Set<Outcome>(picks.map((p) => p.outcome)) });
}

export async function filterByText(ctx: HostContext): Promise<void> {
  const text = await vscode.window.showInputBox({
    title: 'Filter tasks by text', prompt: 'Part of a task id or name (empty = no text filter)', value: ctx.treeProvider.state.text,
  });
  if (text === undefined) return;
  ctx.treeProvider.setState({ text });
}

export function toggleOnlyProblems(ctx: HostContext): void {
  ctx.treeProvider.setState({ onlyProblems: !ctx.treeProvider.state.onlyProblems });
}

export function clearFilter(ctx: HostContext): void {
  ctx.treeProvider.setState({ outcomes: null, text: '', onlyProblems: false });
}

export async function sortTasks(ctx: HostContext): Promise<void> {
  const cur = ctx.treeProvider.state.sort;
  const items: (vscode.QuickPickItem & { sort: TaskSort })[] = [
    { label: 'Task id', description: cur === 'id' ? 'current' : undefined, sort: 'id' },
    { label: 'Reward (highest mean first)', description: cur === 'reward' ? 'current' : undefined, sort: 'reward' },
    { label: 'Failures (most first)', description: cur === 'failures' ? 'current' : undefined, sort: 'failures' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Sort tasks by' });
  if (pick) ctx.treeProvider.setState({ sort: pick.sort });
}

/** The view-title filter button: one menu for every filter and sort. */
export async function filterMenu(ctx: HostContext): Promise<void> {
  const s = ctx.treeProvider.state;
  const items = [
    { label: '$(filter) Outcome…', description: s.outcomes ? [...s.outcomes].map((o) => OUTCOME_LABELS[o]).join(', ') : 'all', run: () => filterByOutcome(ctx) },
    { label: '$(search) Text…', description: s.text ? `"${s.text}"` : 'none', run: () => filterByText(ctx) },
    { label: `$(warning) Only problems`, description: s.onlyProblems ? 'on' : 'off', run: async () => toggleOnlyProblems(ctx) },
    { label: '$(list-ordered) Sort tasks…', description: s.sort, run: () => sortTasks(ctx) },
    { label: '$(clear-all) Clear filter', run: async () => clearFilter(ctx) },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Filter runs' });
  if (pick) await pick.run();
}

/** A "Show more" row clicked: the next page of the run's tasks (or the task's attempts) is listed. */
export function showMore(ctx: HostContext, arg?: unknown): void {
  const n = nodeOfArg(ctx, arg);
  if (n?.kind === 'more') ctx.treeProvider.showMore(n);
}
