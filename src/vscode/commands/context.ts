// What every command module needs: the store, the tree (provider + view), the file system port, diagnostics.
import * as vscode from 'vscode';
import type { FsPort } from '../core/fs/port';
import type { RunStore } from '../runStore';
import type { RunsTreeProvider } from '../tree/provider';
import type { TreeNode } from '../tree/nodes';
import type { RunDiagnostics } from '../diagnostics';
import { describe } from '../tree/describe';
import { isTreeNode } from '../tree/provider';

export interface CommandContext {
  store: RunStore;
  provider: RunsTreeProvider;
  view: vscode.TreeView<TreeNode>;
  fs: FsPort;
  diagnostics: RunDiagnostics;
}

/** The file or folder a command argument stands for: a tree node, a Uri (explorer menus) or a path. */
export function pathOfArg(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (typeof arg === 'string') return arg;
  if (isTreeNode(arg)) {
    if (arg.kind === 'run') return arg.run.anchor;
    return describe(arg).path;
  }
  return undefined;
}

/** The selected node when a command runs from a keybinding or the palette with the tree focused. */
export function nodeOfArg(ctx: CommandContext, arg: unknown): TreeNode | undefined {
  if (isTreeNode(arg)) return arg;
  return arg === undefined ? ctx.view.selection[0] : undefined;
}

export function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

export function isInWorkspace(p: string): boolean {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(p)) !== undefined;
}
