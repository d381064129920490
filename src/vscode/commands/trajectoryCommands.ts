// Commands around the trajectory editor: "Open in Trajectory Viewer" (a tree trajectory or attempt with its task,
// outcome, reward and links; an explorer file; the active JSON editor; or a picked JSON file), "Copy Link" on runs,
// tasks, attempts and trajectories, and "Open Link…" (a pasted vscode:// link, see src/vscode/deepLinks.ts).
import * as vscode from 'vscode';
import { type TreeNode, runOfNode } from '../../views/tree/nodes';
import { formatDeepLink, type DeepLink } from '../../views/deepLink';
import { type AttemptContext, openTrajectory } from '../editors/trajectoryEditor';
import { handleDeepLink } from '../deepLinks';
import type { HostContext } from '../hostContext';
import { isTreeNode } from '../treeProvider';
import { nodeOfArg } from './args';
import { mayOpen } from '../openGuard';

/** The attempt a tree node belongs to, as the trajectory editor's header shows it. */
export function attemptContextOf(n: TreeNode): AttemptContext | undefined {
  if (n.kind !== 'evidence' && n.kind !== 'attempt') return undefined;
  const attempt = n.attempt;
  if (!attempt) return undefined;
  const task = n.kind === 'attempt' ? n.task : n.run.tasks.find((t) => t.attempts.includes(attempt));
  const ev = (k: string) => attempt.evidence.find((e) => e.kind === k && e.present)?.path;
  return {
    run: n.run.label, task: task?.label || task?.id || '', attempt: attempt.label, outcome: attempt.outcome, reward: attempt.reward,
    testStdout: ev('test-stdout'), verifierDir: ev('verifier-logs'),
  };
}

function trajectoryOf(n: TreeNode): string | undefined {
  if (n.kind === 'evidence') return n.evidence.kind === 'trajectory' && n.evidence.present ? n.evidence.path : undefined;
  if (n.kind === 'attempt') return n.attempt.evidence.find((e) => e.kind === 'trajectory' && e.present)?.path;
  return undefined;
}

/** harborRuns.openTrajectory: a tree node (trajectory evidence or attempt), a Uri, the active JSON editor, or a picked file. */
export async function openTrajectoryCommand(ctx: HostContext, arg?: unknown): Promise<void> {
  if (isTreeNode(arg)) {
    const file = trajectoryOf(arg);
    if (!file) { void vscode.window.showInformationMessage('This item has no trajectory.json on disk.'); return; }
    // A trajectory.json linking outside its run is not opened (docs/untrusted-runs.md).
    if (!(await mayOpen(ctx, file, runOfNode(arg)))) return;
    await openTrajectory(ctx, vscode.Uri.file(file), { attempt: attemptContextOf(arg) });
    return;
  }
  let uri = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.file(arg) : undefined;
  if (!uri) {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const active = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
    if (active && active.scheme === 'file' && /\.json$/i.test(active.path)) uri = active;
  }
  if (!uri) {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Trajectory (JSON)': ['json'] }, openLabel: 'Open in Trajectory Viewer' });
    uri = picked?.[0];
  }
  if (uri) await openTrajectory(ctx, uri);
}

/** The deep link of a tree node: its run, task, attempt or trajectory. */
export function linkOf(n: TreeNode): DeepLink | undefined {
  switch (n.kind) {
    case 'run': return { kind: 'run', run: n.run.id };
    case 'task': return { kind: 'task', run: n.run.id, task: n.task.id };
    case 'attempt': return { kind: 'attempt', run: n.run.id, task: n.task.id, attempt: n.attempt.id };
    case 'evidence': return n.evidence.kind === 'trajectory' ? { kind: 'trajectory', file: n.evidence.path, step: null } : undefined;
    default: return undefined;
  }
}

/** harborRuns.copyLink: copies a vscode:// link to the node (or the tree's selection); returns it. */
export async function copyLink(ctx: HostContext, arg?: unknown): Promise<string | undefined> {
  const n = nodeOfArg(ctx, arg);
  const link = n && linkOf(n);
  if (!link) { void vscode.window.showInformationMessage('Copy Link: select a run, task, attempt or trajectory in the Runs view.'); return undefined; }
  const text = formatDeepLink(link, vscode.env.uriScheme);
  await vscode.env.clipboard.writeText(text);
  void vscode.window.setStatusBarMessage('Copied a Harbor Runs link', 3000);
  return text;
}

/** harborRuns.openLink: a link passed as argument or pasted; true when it opened something. */
export async function openLink(ctx: HostContext, arg?: unknown): Promise<boolean> {
  const text = typeof arg === 'string' ? arg
    : await vscode.window.showInputBox({ prompt: 'A Harbor Runs link (vscode://harbor-runs.harbor-runs/…)', ignoreFocusOut: true });
  if (!text?.trim()) return false;
  let uri: vscode.Uri;
  try { uri = vscode.Uri.parse(text.trim(), true); } catch {
    void vscode.window.showWarningMessage('Harbor Runs: this is not a link.');
    return false;
  }
  return handleDeepLink(ctx, uri);
}
