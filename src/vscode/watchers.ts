// File-system watchers that keep the runs current while they write: every event of a workspace folder goes to the
// store, which debounces them and re-reads only the runs concerned (or re-discovers the folder for a new run).
// Runs outside the workspace folders' watcher (a NeMo verifier folder elsewhere) are refreshed by the Refresh button.
import * as vscode from 'vscode';
import type { RunStore } from './runStore';
import { readSettings } from './settings';

export class RunWatchers implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];

  constructor(private readonly store: RunStore) {}

  /** (Re)creates one watcher per workspace folder when auto-refresh is on; none when it is off. */
  update(): void {
    this.clear();
    if (!readSettings().autoRefresh) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
      const note = (uri: vscode.Uri) => {
        if (/\/(\.git|node_modules)(\/|$)/.test(uri.path)) return;
        this.store.notePathsChanged([uri.fsPath]);
      };
      this.watchers.push(w, w.onDidCreate(note), w.onDidChange(note), w.onDidDelete(note));
    }
  }

  private clear(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
  }

  dispose(): void {
    this.clear();
  }
}
