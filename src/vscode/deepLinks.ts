// vscode:// deep links (format: src/views/deepLink.ts): the URI handler of the extension, and what a link opens —
// a run, task or attempt revealed in the Runs tree, or a trajectory at a step in the trajectory editor. A link may
// only open trajectories inside the open workspace folders (a link is text from anywhere).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, parseDeepLink, type DeepLink } from '../views/deepLink';
import type { TreeNode } from '../views/tree/nodes';
import { isInWorkspace } from './commands/args';
import { openTrajectory } from './editors/trajectoryEditor';
import type { HostContext } from './hostContext';

async function revealLink(ctx: HostContext, link: Exclude<DeepLink, { kind: 'trajectory' }>): Promise<boolean> {
  await ctx.store.ensureLoaded();
  const run = ctx.store.get(link.run);
  if (!run) { void vscode.window.showWarningMessage(`Harbor Runs: no run ${link.run} in this workspace.`); return false; }
  const runNode = ctx.treeProvider.nodeForRun(run);
  let target: TreeNode = runNode;
  if (link.kind !== 'run') {
    const taskNode = await ctx.treeProvider.childFor(runNode, (k) => k.kind === 'task' && k.task.id === link.task);
    if (taskNode?.kind !== 'task') { void vscode.window.showWarningMessage(`Harbor Runs: no task ${link.task} in ${run.label} (or the filter hides it).`); return false; }
    target = taskNode;
    if (link.kind === 'attempt') {
      const a = await ctx.treeProvider.childFor(taskNode, (k) => k.kind === 'attempt' && k.attempt.id === link.attempt);
      if (!a) { void vscode.window.showWarningMessage(`Harbor Runs: no attempt ${link.attempt} of ${link.task}.`); return false; }
      target = a;
    }
  }
  await ctx.treeView.reveal(target, { select: true, focus: true, expand: link.kind !== 'attempt' });
  return true;
}

/** Opens what a deep link names; false when it names nothing here (the user is told why). */
export async function handleDeepLink(ctx: HostContext, uri: vscode.Uri): Promise<boolean> {
  ctx.log.info(`deep link: ${uri.toString(true).slice(0, 300)}`);
  const link = uri.authority.toLowerCase() === EXTENSION_ID ? parseDeepLink(uri.path, uri.query) : null;
  if (!link) { void vscode.window.showWarningMessage('Harbor Runs: this link is not one Harbor Runs understands.'); return false; }
  if (link.kind !== 'trajectory') return revealLink(ctx, link);
  // Normalised first: "/workspace/../etc/x.json" is not in the workspace.
  const file = path.posix.normalize(link.file);
  if (!isInWorkspace(file)) {
    void vscode.window.showWarningMessage(`Harbor Runs: ${file} is not in this workspace; links open trajectories of the open folders only.`);
    return false;
  }
  await openTrajectory(ctx, vscode.Uri.file(file), { step: link.step });
  return true;
}

/** Registers the extension's URI handler (vscode://harbor-runs.harbor-runs/…). Called from HostContext.registerAll. */
export function registerDeepLinks(ctx: HostContext): void {
  ctx.track(vscode.window.registerUriHandler({ handleUri: async (uri) => { await handleDeepLink(ctx, uri); } }));
}
