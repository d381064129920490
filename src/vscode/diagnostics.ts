// Problems panel entries for every Problem of every run, placed at the exact JSON value of a summary's missing path /
// stale file / label mismatch (jsonc-parser on the Problem's jsonPath), with a quick fix that rewrites the summary.
import * as vscode from 'vscode';
import type { FsPort } from '../core/fs/port';
import { Disposable } from '../core/lifecycle';
import type { Problem, Run, Severity } from '../core/model';
import type { RunStore } from '../views/runStore';
import { JsonLocator, type Span, lineSpan } from '../core/jsonLocator';
import { isRunSummaryPath } from '../core/summary/paths';

export const DIAGNOSTIC_SOURCE = 'harbor-runs';
/** JSON files larger than this are not parsed for positions (the problem goes to the top of the file). */
const MAX_LOCATE_BYTES = 64 * 1024 * 1024;

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class RunDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE));
  private readonly locators = new Map<string, { key: string; locator: JsonLocator | undefined }>();
  private readonly perRun = new WeakMap<Run, { key: string; file: string; diagnostic: vscode.Diagnostic }[]>();
  private running: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(private readonly store: RunStore, private readonly fs: FsPort) {
    super();
    this.register(store.onDidChange(() => this.schedule()));
  }

  /** Recomputes every entry (serialised: one pass at a time, the latest state wins). */
  schedule(): Promise<void> {
    if (this.dirty) return this.running;
    this.dirty = true;
    this.running = this.running.then(async () => {
      this.dirty = false;
      try { await this.update(this.store.runs()); } catch { /* a file vanished mid-way: the next change recomputes */ }
    });
    return this.running;
  }

  whenIdle(): Promise<void> {
    return this.running;
  }

  private async locator(file: string): Promise<JsonLocator | undefined> {
    const st = await this.fs.stat(file);
    if (!st || st.type !== 'file' || st.size > MAX_LOCATE_BYTES) return undefined;
    const key = `${st.mtimeMs}:${st.size}`;
    const hit = this.locators.get(file);
    if (hit && hit.key === key) return hit.locator;
    let locator: JsonLocator | undefined;
    try {
      locator = new JsonLocator(new TextDecoder('utf-8').decode(await this.fs.readFile(file)));
    } catch {
      locator = undefined;
    }
    this.locators.set(file, { key, locator });
    return locator;
  }

  async spanOf(p: Problem): Promise<Span> {
    if (p.jsonPath) {
      if (!p.file.endsWith('.json')) {
        // A summary built in memory (no file yet): its JSON positions mean nothing in the rollouts file.
        return { line: 0, character: 0, endLine: 0, endCharacter: 0 };
      }
      const loc = await this.locator(p.file);
      const span = loc?.spanOf(p.jsonPath);
      if (span) return span;
    }
    return lineSpan(p);
  }

  /**
   * A Harbor problem about a file that is not on disk goes on the trial's result.json (or the trial / job folder):
   * an entry on a file that does not exist would open an empty editor.
   */
  private async placed(run: Run, p: Problem): Promise<Problem> {
    if (run.kind !== 'harbor-job' || (await this.fs.stat(p.file))) return p;
    // A trial is a folder directly under the job folder.
    const rel = p.file.startsWith(`${run.root}/`) ? p.file.slice(run.root.length + 1) : '';
    const dir = rel.includes('/') ? `${run.root}/${rel.split('/')[0]}` : undefined;
    for (const target of dir ? [`${dir}/result.json`, dir] : [`${run.root}/result.json`, run.root]) {
      if (await this.fs.stat(target)) return { ...p, file: target, line: undefined, column: undefined, jsonPath: undefined };
    }
    return p;
  }

  /** One run's entries, computed once per run object (a re-read run is a new object). */
  private async entriesOf(run: Run): Promise<{ key: string; file: string; diagnostic: vscode.Diagnostic }[]> {
    const hit = this.perRun.get(run);
    if (hit) return hit;
    const out: { key: string; file: string; diagnostic: vscode.Diagnostic }[] = [];
    for (const raw of run.problems) {
      if (!raw.file) continue;
      const p = await this.placed(run, raw);
      const key = `${p.file}\u0000${p.code}\u0000${p.message}\u0000${(p.jsonPath ?? []).join('/')}\u0000${p.line ?? ''}`;
      const s = await this.spanOf(p);
      const d = new vscode.Diagnostic(new vscode.Range(s.line, s.character, s.endLine, s.endCharacter), p.message, SEVERITY[p.severity] ?? vscode.DiagnosticSeverity.Warning);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = p.code;
      out.push({ key, file: p.file, diagnostic: d });
    }
    this.perRun.set(run, out);
    return out;
  }

  private async update(runs: Run[]): Promise<void> {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const seen = new Set<string>();
    for (const run of runs) {
      for (const { key, file, diagnostic } of await this.entriesOf(run)) {
        if (seen.has(key)) continue; // two runs can name the same problem (a shared file)
        seen.add(key);
        let list = byFile.get(file);
        if (!list) { list = []; byFile.set(file, list); }
        list.push(diagnostic);
      }
    }
    this.collection.clear();
    for (const [file, list] of byFile) this.collection.set(vscode.Uri.file(file), list);
    for (const file of [...this.locators.keys()]) if (!byFile.has(file)) this.locators.delete(file);
  }
}

/** Quick fix on a summary's entries: rewrite the summary from what is on disk now. */
export class RewriteSummaryActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly store: RunStore) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, ctx: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!isRunSummaryPath(doc.uri.path)) return [];
    const ours = ctx.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const action = new vscode.CodeAction('Rewrite the run summary from the files on disk', vscode.CodeActionKind.QuickFix);
    action.diagnostics = ours;
    action.isPreferred = true;
    action.command = {
      command: 'harborRuns.writeRunSummary',
      title: 'Write Run Summary',
      arguments: [vscode.Uri.file(this.store.rolloutsForSummary(doc.uri.fsPath))],
    };
    return [action];
  }
}
