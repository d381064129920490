// Generated text for VS Code's own diff editor: the verifier output of two attempts (outcome, rewards, failed tests of
// ctrf.json, test-stdout.txt: core/compare/verifier.ts) served read-only under the `harbor-compare:` scheme and
// opened with `vscode.diff`. Nothing is written to disk; a test-stdout.txt outside its run (or linking out) is not read.
import * as vscode from 'vscode';
import { verifierEvidence, verifierReport } from '../core/compare';
import { containment } from '../core/containment';
import type { Attempt, Run } from '../core/model';
import type { HostContext } from './hostContext';

export const COMPARE_SCHEME = 'harbor-compare';
/** test-stdout.txt larger than this is not put in the diff (said instead). */
const MAX_STDOUT = 4 * 1024 * 1024;

class CompareDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '(this comparison is no longer available: open it again from the Compare panel)';
  }

  set(uri: vscode.Uri, text: string): void {
    const had = this.texts.has(uri.path);
    this.texts.set(uri.path, text);
    if (had) this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

let documents: CompareDocuments | undefined;

export function registerCompareDocuments(ctx: HostContext): void {
  documents = ctx.track(new CompareDocuments());
  ctx.track(vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, documents));
}

async function stdoutOf(ctx: HostContext, run: Run, a: Attempt): Promise<{ text: string | null; note?: string }> {
  const ev = verifierEvidence(a).stdout;
  if (!ev || !ev.present) return { text: null, note: ev?.outside ? 'outside the run, not read' : undefined };
  const c = await containment(ctx.fs, run.root, ev.path);
  if (!c.inside) return { text: null, note: `not read: ${c.reason}` };
  try {
    const st = await ctx.fs.stat(ev.path);
    if (!st || st.type !== 'file') return { text: null, note: 'not a file' };
    if (st.size > MAX_STDOUT) return { text: null, note: `too large to compare here (${st.size} bytes): open the file` };
    return { text: new TextDecoder('utf-8').decode(await ctx.fs.readFile(ev.path)) };
  } catch (e) {
    return { text: null, note: `cannot be read: ${(e as Error).message}` };
  }
}

/** Safe file-name part of a generated document's path. */
const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'attempt';

export interface VerifierSide { title: string; run: Run; attempt: Attempt }

/** Opens the verifier outputs of two attempts side by side in the diff editor; returns the two URIs. */
export async function showVerifierDiff(ctx: HostContext, key: string, left: VerifierSide, right: VerifierSide): Promise<[vscode.Uri, vscode.Uri]> {
  if (!documents) throw new Error('compare documents are not registered');
  const [l, r] = await Promise.all([stdoutOf(ctx, left.run, left.attempt), stdoutOf(ctx, right.run, right.attempt)]);
  const uri = (side: string, title: string) => vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${slug(key)}/${side}/${slug(title)}.verifier.txt` });
  const lu = uri('left', left.title);
  const ru = uri('right', right.title);
  documents.set(lu, verifierReport(left.attempt, l.text, l.note));
  documents.set(ru, verifierReport(right.attempt, r.text, r.note));
  await vscode.commands.executeCommand('vscode.diff', lu, ru, `Verifier: ${left.title} ↔ ${right.title}`, { preview: true });
  return [lu, ru];
}
