// What a command's argument stands for: a tree node, a Uri (explorer menus) or a path; the tree's selection when
// the command runs from a keybinding or the palette.
import * as vscode from 'vscode';
import type { TreeNode } from '../../views/tree/nodes';
import type { HostContext } from '../hostContext';
import { describe } from '../../views/tree/describe';
import { isTreeNode } from '../treeProvider';

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
export function nodeOfArg(ctx: HostContext, arg: unknown): TreeNode | undefined {
  if (isTreeNode(arg)) return arg;
  return arg === undefined ? ctx.treeView.selection[0] : undefined;
}

export function isInWorkspace(p: string): boolean {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(p)) !== undefined;
}
