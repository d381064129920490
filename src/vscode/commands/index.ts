// Registers every command of the extension (ids match package.json `contributes.commands`).
import * as vscode from 'vscode';
import { log, showError } from '../log';
import type { CommandContext } from './context';
import { clearFilter, filterByOutcome, filterByText, filterMenu, sortTasks, toggleOnlyProblems } from './filterCommands';
import { copyPath, explainMissing, openAsJson, openItem, openProblem, refresh, revealInExplorer, revealInOS } from './itemCommands';
import { writeRunSummaryCommand } from './writeRunSummary';
import { openRunOverview } from './openRunOverview';

type Handler = (ctx: CommandContext, arg?: unknown) => unknown;

const COMMANDS: Record<string, Handler> = {
  'harborRuns.writeRunSummary': writeRunSummaryCommand,
  'harborRuns.refresh': refresh,
  'harborRuns.openRunOverview': openRunOverview,
  'harborRuns.openItem': openItem,
  'harborRuns.explainMissing': explainMissing,
  'harborRuns.openProblem': openProblem,
  'harborRuns.copyPath': copyPath,
  'harborRuns.revealInExplorer': revealInExplorer,
  'harborRuns.revealInOS': revealInOS,
  'harborRuns.openAsJson': openAsJson,
  'harborRuns.filter': filterMenu,
  'harborRuns.filterByOutcome': filterByOutcome,
  'harborRuns.filterByText': filterByText,
  'harborRuns.toggleOnlyProblems': toggleOnlyProblems,
  'harborRuns.clearFilter': clearFilter,
  'harborRuns.sortTasks': sortTasks,
  'harborRuns.showLog': () => log().show(true),
  'harborRuns.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:harbor-runs.harbor-runs'),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      try {
        return await handler(ctx, arg);
      } catch (e) {
        await showError(`${id} failed: ${(e as Error)?.message ?? String(e)}`, e);
        return undefined;
      }
    }));
}
