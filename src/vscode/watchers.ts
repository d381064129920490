// File-system watchers that keep the runs current while they write: every event of a workspace folder goes to the
// store, which debounces them and re-reads only the runs concerned (or re-discovers the folder for a new run).
// Runs outside the workspace folders' watcher (a NeMo verifier folder elsewhere) are refreshed by the Refresh button.
import * as vscode from 'vscode';
import { Disposable, DisposableStore } from '../core/lifecycle';
import type { RunStore } from '../views/runStore';
import { readSettings } from './settings';

export class RunWatchers extends Disposable {
  private readonly watchers = this.register(new DisposableStore());

  constructor(private readonly store: RunStore) {
    super();
  }

  /** (Re)creates one watcher per workspace folder when auto-refresh is on; none when it is off. */
  update(): void {
    this.watchers.clear();
    if (!readSettings().autoRefresh) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
      const note = (uri: vscode.Uri) => {
        if (/\/(\.git|node_modules)(\/|$)/.test(uri.path)) return;
        this.store.notePathsChanged([uri.fsPath]);
      };
      for (const d of [w, w.onDidCreate(note), w.onDidChange(note), w.onDidDelete(note)]) this.watchers.add(d);
    }
  }
}
