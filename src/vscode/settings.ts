// The extension's settings (package.json `contributes.configuration`), read in one place.
import * as vscode from 'vscode';

export const SECTION = 'harborRuns';

export interface Settings {
  include: string[];
  exclude: string[];
  autoRefresh: boolean;
  notifyOnCompletion: boolean;
  /** Folders discovery reads per workspace folder before it stops (and says so). */
  maxFolders: number;
  /** What one file read (or one JSONL line) may hold, in MB: past it the file is a problem, never read. */
  maxFileSizeMB: number;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  return {
    include: strings(c.get('include')),
    exclude: strings(c.get('exclude')),
    autoRefresh: c.get<boolean>('autoRefresh', true),
    notifyOnCompletion: c.get<boolean>('notifyOnCompletion', true),
    maxFolders: Math.max(1, Math.floor(Number(c.get('maxFolders', 50_000))) || 50_000),
    maxFileSizeMB: Math.max(1, Number(c.get('maxFileSizeMB', 256)) || 256),
  };
}

export function onSettingsChanged(listener: (key: keyof Settings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    for (const k of ['include', 'exclude', 'autoRefresh', 'notifyOnCompletion', 'maxFolders', 'maxFileSizeMB'] as const) {
      if (e.affectsConfiguration(`${SECTION}.${k}`)) listener(k);
    }
  });
}
