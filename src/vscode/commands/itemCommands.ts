// Commands on tree items: open (preview), explain a missing item, go to a problem, copy path, reveal in the
// explorer / file manager, open as JSON, refresh.
import * as vscode from 'vscode';
import type { TreeNode } from '../../views/tree/nodes';
import { isTreeNode } from '../treeProvider';
import type { HostContext } from '../hostContext';
import { openProblem as showProblem } from '../openProblem';
import { basename } from '../../core/paths';
import { isInWorkspace, nodeOfArg, pathOfArg } from './args';
import { refusalOf, runOfNode } from '../../views/tree/nodes';
import { mayOpen, sayRefused } from '../openGuard';

/** Whether the path of a node (or a path) may be opened: never one that leaves its run (openGuard.ts). */
async function mayOpenArg(ctx: HostContext, p: string, arg: unknown): Promise<boolean> {
  const n = isTreeNode(arg) ? arg : undefined;
  const refused = n && refusalOf(n);
  if (refused) { sayRefused(ctx, p, refused); return false; }
  return mayOpen(ctx, p, runOfNode(n));
}

export async function openItem(_ctx: HostContext, arg: unknown): Promise<void> {
  const p = pathOfArg(arg);
  if (!p) return;
  if (!(await mayOpenArg(_ctx, p, arg))) return;
  const uri = vscode.Uri.file(p);
  const st = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (st && st.type & vscode.FileType.Directory) {
    await revealInExplorer(_ctx, p);
    return;
  }
  // vscode.open picks the editor registered for the file (the trajectory viewer for trajectory.json once it exists).
  await vscode.commands.executeCommand('vscode.open', uri, { preview: true, preserveFocus: false });
}

function missingText(n: TreeNode): { text: string; path?: string } | undefined {
  switch (n.kind) {
    case 'evidence':
      return { text: `Not on disk: ${n.evidence.path}${n.evidence.namedBy ? ` (${n.evidence.namedBy})` : ''}.`, path: n.evidence.path };
    case 'missing-path':
      return { text: `Not on disk: ${n.path}${n.attempt.source ? ` (named by ${n.attempt.source.file}${n.attempt.source.line ? `:${n.attempt.source.line}` : ''})` : ''}.`, path: n.path };
    case 'run-file':
      return { text: `Not on disk: ${n.file.path ?? n.file.label}. The run's record names it, but the file is gone.`, path: n.file.path ?? undefined };
    case 'attempt':
      return { text: `${n.task.label || n.task.id} ${n.attempt.label} is missing: it was selected for the run, but no row or trial exists for it${n.attempt.source ? ` (expected from ${n.attempt.source.file})` : ''}.`, path: n.attempt.dir };
    default:
      return undefined;
  }
}

export async function explainMissing(ctx: HostContext, arg: unknown): Promise<void> {
  const n = nodeOfArg(ctx, arg);
  if (!n) return;
  const refused = refusalOf(n);
  const p = pathOfArg(n);
  if (refused && p) { sayRefused(ctx, p, refused); return; }
  const m = missingText(n);
  if (!m) return;
  const run = 'run' in n ? n.run : undefined;
  const actions: string[] = [];
  if (run?.kind === 'nemo-gym' && run.rolloutsPath && vscode.workspace.isTrusted) actions.push('Write Run Summary');
  if (m.path) actions.push('Copy Path');
  const pick = await vscode.window.showWarningMessage(m.text, ...actions);
  if (pick === 'Write Run Summary') await vscode.commands.executeCommand('harborRuns.writeRunSummary', n);
  else if (pick === 'Copy Path' && m.path) await vscode.env.clipboard.writeText(m.path);
}

export async function openProblem(ctx: HostContext, arg: unknown): Promise<void> {
  const n = nodeOfArg(ctx, arg);
  if (!n || n.kind !== 'problem') return;
  await showProblem(ctx, n.problem, undefined, n.run);
}

export async function copyPath(ctx: HostContext, arg: unknown): Promise<void> {
  const p = pathOfArg(arg ?? nodeOfArg(ctx, arg));
  if (p) await vscode.env.clipboard.writeText(p);
}

export async function revealInExplorer(ctx: HostContext, arg: unknown): Promise<void> {
  const p = pathOfArg(arg ?? nodeOfArg(ctx, arg));
  if (!p) return;
  const uri = vscode.Uri.file(p);
  if (isInWorkspace(p)) await vscode.commands.executeCommand('revealInExplorer', uri);
  else await vscode.commands.executeCommand('revealFileInOS', uri);
}

export async function revealInOS(ctx: HostContext, arg: unknown): Promise<void> {
  const p = pathOfArg(arg ?? nodeOfArg(ctx, arg));
  if (p) await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(p));
}

/** The JSON file behind a node: a run's summary / result.json / summary.json, else the item's own file. */
function jsonPathOf(n: TreeNode | undefined, arg: unknown): string | undefined {
  if (n?.kind === 'run') {
    const r = n.run;
    if (r.summaryPath && !r.summaryIsVirtual) return r.summaryPath;
    if (r.kind === 'harbor-job') return `${r.root}/result.json`;
    return r.anchor.endsWith('.json') ? r.anchor : r.rolloutsPath ?? r.anchor;
  }
  return pathOfArg(n ?? arg);
}

export async function openAsJson(ctx: HostContext, arg: unknown): Promise<void> {
  const n = isTreeNode(arg) ? arg : nodeOfArg(ctx, arg);
  const p = jsonPathOf(n, arg);
  if (!p) return;
  if (!(await mayOpenArg(ctx, p, n ?? arg))) return;
  const uri = vscode.Uri.file(p);
  // 'default' = the text editor, even where a custom editor (trajectory viewer) is the default for the file.
  await vscode.commands.executeCommand('vscode.openWith', uri, 'default', { preview: true });
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && doc.uri.fsPath === p && p.endsWith('.json') && doc.languageId !== 'json' && doc.languageId !== 'jsonc') {
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
  }
}

export async function refresh(ctx: HostContext, arg: unknown): Promise<void> {
  const n = isTreeNode(arg) ? arg : undefined;
  const title = n && 'run' in n ? `Refreshing ${basename(n.run.anchor)}` : 'Refreshing runs';
  await vscode.window.withProgress({ location: { viewId: 'harborRuns.runs' }, title }, async () => {
    if (n && 'run' in n) await ctx.store.refreshRun(n.run.id);
    else await ctx.store.reload();
    await ctx.store.whenIdle();
  });
}
