// "Harbor: Open Run Overview": from a run's tree item (inline button / context menu), from any node under a run,
// from a run id (tests), or from the palette with a quick pick of the runs.
import * as vscode from 'vscode';
import type { Run } from '../../core/model';
import { countRun } from '../../core/model';
import { RUN_KIND_LABELS, plural } from '../../core/format';
import { isTreeNode } from '../treeProvider';
import { RunOverviewPanel } from '../panels/runOverviewPanel';
import type { HostContext } from '../hostContext';

async function pickRun(ctx: HostContext): Promise<Run | undefined> {
  await ctx.store.ensureLoaded();
  // The run selected in the Runs tree (if any) comes first.
  const sel = ctx.treeView.selection[0];
  const selected = sel && 'run' in sel ? sel.run.id : undefined;
  const runs = ctx.store.runs().sort((a, b) => Number(b.id === selected) - Number(a.id === selected) || a.label.localeCompare(b.label));
  if (runs.length === 0) {
    void vscode.window.showInformationMessage('No run was found in this workspace.');
    return undefined;
  }
  const items = runs.map((run) => {
    const c = countRun(run);
    return {
      label: run.label,
      description: `${RUN_KIND_LABELS[run.kind]} · ${plural(run.tasks.length, 'task')} · ${c.passed}/${c.measured} passed`,
      detail: vscode.workspace.asRelativePath(run.anchor),
      run,
    };
  });
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Open the overview of which run?', matchOnDescription: true, matchOnDetail: true });
  return pick?.run;
}

/** Returns the id of the run whose overview is shown (undefined when cancelled). */
export async function openRunOverview(ctx: HostContext, arg: unknown): Promise<string | undefined> {
  let run: Run | undefined;
  if (isTreeNode(arg) && 'run' in arg) run = arg.run;
  else if (typeof arg === 'string') { await ctx.store.ensureLoaded(); run = ctx.store.get(arg); }
  else if (arg === undefined) run = await pickRun(ctx);
  if (!run) return undefined;
  RunOverviewPanel.show(ctx, run);
  return run.id;
}
