// The command table of the extension (ids match package.json `contributes.commands`), registered by the host context.
import * as vscode from 'vscode';
import type { CommandHandler, HostContext } from '../hostContext';
import { clearFilter, filterByOutcome, filterByText, filterMenu, showMore, sortTasks, toggleOnlyProblems } from './filterCommands';
import { copyPath, explainMissing, openAsJson, openItem, openProblem, refresh, revealInExplorer, revealInOS } from './itemCommands';
import { writeRunSummaryCommand } from './writeRunSummary';
import { openRunOverview } from './openRunOverview';
import { copyLink, openLink, openTrajectoryCommand } from './trajectoryCommands';
import { compareAttempts, compareRuns } from './compareCommands';

const COMMANDS: Record<string, CommandHandler> = {
  'harborRuns.writeRunSummary': writeRunSummaryCommand,
  'harborRuns.refresh': refresh,
  'harborRuns.openRunOverview': openRunOverview,
  'harborRuns.compareRuns': compareRuns,
  'harborRuns.compareAttempts': compareAttempts,
  'harborRuns.openItem': openItem,
  'harborRuns.openTrajectory': openTrajectoryCommand,
  'harborRuns.copyLink': copyLink,
  'harborRuns.openLink': openLink,
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
  'harborRuns.showMore': showMore,
  'harborRuns.showLog': (ctx) => ctx.log.show(true),
  'harborRuns.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:harbor-runs.harbor-runs'),
};

export function registerCommands(ctx: HostContext): void {
  for (const [id, handler] of Object.entries(COMMANDS)) ctx.registerCommand(id, handler);
}
