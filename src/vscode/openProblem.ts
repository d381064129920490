// "Go to problem", the one way: from the Runs tree's Problems group and from a Run Overview's problem list alike.
// The file opens in a preview with the problem's value selected exactly as its Problems-panel entry covers it (the
// core's JsonLocator through RunDiagnostics.spanOf), the cursor on the value's start; a folder is revealed; a file
// that is not on disk says so.
import * as vscode from 'vscode';
import type { Problem, Run } from '../core/model';
import { mayOpen } from './openGuard';
import type { HostContext } from './hostContext';
import { isInWorkspace } from './commands/args';

/** Longest selection on one line (a huge single-line JSON value would otherwise scroll the editor sideways). */
const MAX_SELECTED = 2000;

export async function openProblem(ctx: HostContext, p: Problem, viewColumn?: vscode.ViewColumn, run?: Run): Promise<void> {
  if (!(await mayOpen(ctx, p.file, run))) return;
  const uri = vscode.Uri.file(p.file);
  const st = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!st) {
    void vscode.window.showWarningMessage(`${p.message} (${p.file} is not on disk)`);
    return;
  }
  if (st.type & vscode.FileType.Directory) {
    await vscode.commands.executeCommand(isInWorkspace(p.file) ? 'revealInExplorer' : 'revealFileInOS', uri);
    return;
  }
  const s = await ctx.diagnostics.spanOf(p);
  const start = new vscode.Position(s.line, s.character);
  const end = new vscode.Position(s.endLine, s.endLine === s.line ? Math.min(s.endCharacter, s.character + MAX_SELECTED) : s.endCharacter);
  await vscode.window.showTextDocument(uri, { preview: true, viewColumn, selection: new vscode.Selection(end, start) });
}
