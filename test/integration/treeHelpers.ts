// Helpers of the Runs-tree integration tests: the extension's API (what activate() returns) and tree walking.
import * as vscode from 'vscode';
import { activated } from './helpers';
import type { HarborRunsApi } from '../../src/extension';
import type { TreeNode } from '../../src/views/tree/nodes';

export type { HarborRunsApi, TreeNode };

/** The activated extension's API, with the Runs view shown and the runs loaded. */
export async function api(): Promise<HarborRunsApi> {
  const ext = await activated<HarborRunsApi>();
  await vscode.commands.executeCommand('harborRuns.runs.focus');
  await ext.exports.getChildren();
  await ext.exports.whenIdle();
  return ext.exports;
}

export function labelOf(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : l?.label ?? '';
}

/** The child of `node` (root when undefined) whose rendered label matches. */
export async function child(a: HarborRunsApi, node: TreeNode | undefined, label: string | RegExp): Promise<TreeNode> {
  const kids = await a.getChildren(node);
  const hit = kids.find((k) => {
    const l = labelOf(a.getTreeItem(k));
    return typeof label === 'string' ? l === label : label.test(l);
  });
  if (!hit) throw new Error(`no child ${String(label)} under ${node?.id ?? 'root'}: ${kids.map((k) => labelOf(a.getTreeItem(k))).join(' | ')}`);
  return hit;
}

/** Root run nodes (flattening workspace-folder nodes). */
export async function runNodes(a: HarborRunsApi): Promise<TreeNode[]> {
  const out: TreeNode[] = [];
  for (const n of await a.getChildren()) {
    if (n.kind === 'folder') out.push(...(await a.getChildren(n)));
    else out.push(n);
  }
  return out;
}

export function iconOf(item: vscode.TreeItem): { id: string; color?: string } | undefined {
  const icon = item.iconPath;
  // ThemeColor's `id` is missing from the older @types/vscode that engines.vscode pins (it is there at run time).
  if (icon instanceof vscode.ThemeIcon) return { id: icon.id, color: (icon.color as { id?: string } | undefined)?.id };
  return undefined;
}
