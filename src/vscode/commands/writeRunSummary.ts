// "Harbor: Write Run Summary": pick a rollouts file (argument, active editor, else a quick pick), write
// `<stem>_run_summary.json` with a cancellable progress notification (on a worker thread where the files are Node's:
// summary/writeOnWorker.ts), say at once how many tasks, attempts and missing paths it has, then show the run in the
// tree and reveal it. Needs a trusted workspace; errors go to the log with "Show Log".
import * as vscode from 'vscode';
import type { Run } from '../../core/model';
import { countRun } from '../../core/model';
import { isRolloutsFile, isRunSummaryPath, runSummaryPathFor, writeRunSummary, type WriteResult } from '../../core/summary';
import { runFromWrittenSummary } from '../../core/readers/runSummary';
import { factsOf, writeRunSummaryOnWorker, type WrittenFacts } from '../../core/summary/writeOnWorker';
import { showError } from '../log';
import { isTreeNode } from '../treeProvider';
import type { HostContext } from '../hostContext';
import { basename } from '../../core/paths';
import { withLongestBlock } from '../../views/loopBlock';
import { plural } from '../../core/format';
import { ProgressSteps } from '../../views/progressSteps';

/** The rollouts file an argument names: a Uri or path, a run / run file node, a summary (its rollouts). */
function rolloutsOfArg(ctx: HostContext, arg: unknown): string | undefined {
  let p: string | undefined;
  if (arg instanceof vscode.Uri) p = arg.fsPath;
  else if (typeof arg === 'string') p = arg;
  else if (isTreeNode(arg)) {
    if (arg.kind === 'run' || arg.kind === 'files' || arg.kind === 'problems') p = arg.run.rolloutsPath ?? arg.run.summaryPath;
    else if (arg.kind === 'run-file' || arg.kind === 'problem' || arg.kind === 'task' || arg.kind === 'attempt' || arg.kind === 'evidence' || arg.kind === 'missing-path' || arg.kind === 'reason') {
      p = arg.kind === 'run-file' && arg.file.key === 'rollouts' && arg.file.path ? arg.file.path : arg.run.rolloutsPath ?? arg.run.summaryPath;
    }
  }
  if (p && isRunSummaryPath(p)) p = ctx.store.rolloutsForSummary(p);
  return p;
}

async function pickRollouts(ctx: HostContext): Promise<string | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file') {
    const p = active.fsPath;
    if (isRolloutsFile(p)) return p;
    if (isRunSummaryPath(p)) return ctx.store.rolloutsForSummary(p);
  }
  const items = new Map<string, vscode.QuickPickItem & { path: string }>();
  await ctx.store.ensureLoaded();
  for (const r of ctx.store.runs()) {
    if (r.kind === 'nemo-gym' && r.rolloutsPath) {
      items.set(r.rolloutsPath, { label: basename(r.rolloutsPath), description: vscode.workspace.asRelativePath(r.rolloutsPath), detail: r.label, path: r.rolloutsPath });
    }
  }
  const found = await vscode.workspace.findFiles('**/*.jsonl', '**/{node_modules,.git}/**', 2000);
  for (const uri of found) {
    const p = uri.fsPath;
    if (!items.has(p) && isRolloutsFile(p)) items.set(p, { label: basename(p), description: vscode.workspace.asRelativePath(p), path: p });
  }
  if (items.size === 0) {
    void vscode.window.showInformationMessage('No rollouts file (*.jsonl) found in the workspace.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick([...items.values()], {
    title: 'Write Run Summary', placeHolder: 'The rollouts file to summarize', matchOnDescription: true, matchOnDetail: true,
  });
  return pick?.path;
}

/**
 * The written summary's run, put into the store. Built from what the writer just found (no second read of the run's
 * folders) when the store already shows a run of these rollouts or of this summary: on the writer's worker (`fromWorker`)
 * or from the document in memory (a write on this thread). Otherwise the folder is re-discovered (the summary may be
 * excluded by harborRuns.exclude, or new to the store).
 */
async function runOfWritten(ctx: HostContext, rollouts: string, facts: WrittenFacts, result: WriteResult | undefined,
  fromWorker: (() => Promise<Run | undefined>) | undefined): Promise<Run | undefined> {
  const store = ctx.store;
  await store.ensureLoaded();
  let run: Run | undefined;
  if (fromWorker) {
    run = await fromWorker();
    if (!run) ctx.log.info(`the written run did not come from the writer's thread: ${facts.path} is read again`);
  } else if (result?.document && result.bytes) {
    run = await runFromWrittenSummary(ctx.fs, { path: result.path, document: result.document, bytes: result.bytes, problems: result.problems }, rollouts);
  }
  if (run) {
    const put = await store.putWrittenRun(run, facts.path, rollouts);
    if (put) return put;
  }
  const summaryPath = facts.path;
  const old = store.runForFile(rollouts) ?? store.runForFile(summaryPath);
  // A run already read from this summary is re-read; a virtual one (read from the rollouts) is replaced by
  // the summary's run when the folder is re-discovered.
  if (old && !old.summaryIsVirtual) await store.refreshRun(old.id);
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(summaryPath));
  if (folder) await store.reloadFolder(folder.uri.fsPath);
  await store.whenIdle();
  return store.runForFile(summaryPath) ?? store.runForFile(rollouts);
}

/**
 * What the command answers its caller (a test, the quick fix, the palette): a few fields, never the document or its
 * bytes. The answer is serialized for the workbench that ran the command — a 1 GB run's 38 MB document cost the
 * extension host ~70 s of JSON (its bytes as an array of numbers) before the "Wrote …" notification could follow.
 */
export interface WriteOutcome {
  path: string;
  error?: string;
  tasks: number;
  attempts: number;
  missingPaths: number;
  problems: number;
}

export async function writeRunSummaryCommand(ctx: HostContext, arg?: unknown): Promise<WriteOutcome | undefined> {
  if (!vscode.workspace.isTrusted) {
    const pick = await vscode.window.showWarningMessage('Writing a run summary needs a trusted workspace.', 'Manage Workspace Trust');
    if (pick) void vscode.commands.executeCommand('workbench.trust.manage');
    return undefined;
  }
  const rollouts = rolloutsOfArg(ctx, arg) ?? (arg === undefined || arg === null ? await pickRollouts(ctx) : undefined);
  if (!rollouts) return undefined;
  const target = runSummaryPathFor(rollouts);
  ctx.log.info(`writing ${target}`);
  const started = Date.now();
  // The longest the extension host's event loop was held, from the pick to the run shown (logged with the times: a
  // benchmark reads them).
  const { value, blockedMs } = await withLongestBlock(() => writeAndShow(ctx, rollouts, target, started));
  ctx.log.info(`Write Run Summary of ${rollouts}: ${Date.now() - started} ms in all, longest event-loop block ${blockedMs.toFixed(0)} ms`);
  return value;
}

async function writeAndShow(ctx: HostContext, rollouts: string, target: string, started: number): Promise<WriteOutcome> {
  const { value: { facts, result, fromWorker }, blockedMs: writeBlockMs } = await withLongestBlock(async () => vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Writing ${basename(target)}`, cancellable: true },
    async (progress, token): Promise<{ facts: WrittenFacts; result?: WriteResult; fromWorker?: () => Promise<Run | undefined> }> => {
      const ac = new AbortController();
      const sub = token.onCancellationRequested(() => ac.abort(new Error('cancelled')));
      const steps = new ProgressSteps();
      const onProgress = (read: number, total: number): void => {
        const step = steps.next(read, total);
        if (step > 0) progress.report({ increment: step, message: `${steps.reported}% of ${basename(rollouts)}` });
      };
      try {
        // On a worker thread where the files are Node's (the extension host's thread then only relays progress);
        // else here, keeping the bytes the written run is shown from (runOfWritten).
        const onWorker = ctx.fs.nodeLocal
          ? await writeRunSummaryOnWorker(rollouts, { signal: ac.signal, onProgress, maxFileBytes: ctx.fs.maxFileBytes, showRun: true })
          : undefined;
        if (onWorker) return { facts: onWorker.facts, fromWorker: onWorker.run };
        const written = await writeRunSummary(ctx.fs, rollouts, { signal: ac.signal, keepBytes: true, onProgress });
        return { facts: factsOf(written), result: written };
      } finally {
        sub.dispose();
      }
    },
  ));
  for (const p of facts.problems) ctx.log[p.severity === 'error' ? 'error' : p.severity === 'warning' ? 'warn' : 'info'](`${p.file}${p.line ? `:${p.line}` : ''}: ${p.code}: ${p.message}`);
  if (facts.error) {
    if (facts.error === 'cancelled') {
      ctx.log.info(`cancelled: ${target}`);
      void vscode.window.showInformationMessage(`Writing ${basename(target)} was cancelled; the previous file (if any) is unchanged.`);
    } else {
      // Not awaited: the command answers at once; the notification stays until the user closes it.
      void showError(ctx.log, `Could not write the run summary: ${facts.error}`);
    }
    return { path: facts.path, error: facts.error, tasks: 0, attempts: 0, missingPaths: 0, problems: facts.problems.length };
  }
  ctx.store.noteOwnWrite(facts.path); // before its watcher event can ask for a re-read of the whole run
  ctx.log.info(`wrote ${facts.path} in ${Date.now() - started} ms, longest event-loop block ${writeBlockMs.toFixed(0)} ms`);
  // Said as soon as the file is written (its counts are the document's); the run is shown in the tree after it.
  const msg = `Wrote ${basename(facts.path)}: ${plural(facts.tasks, 'task')}, ${plural(facts.attempts, 'attempt')}, ${plural(facts.missingPaths, 'missing path')}.`;
  void vscode.window.showInformationMessage(msg, 'Open Summary').then((pick) => {
    if (pick) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(facts.path));
  });
  ctx.log.info(msg);
  const shown = Date.now();
  const { value: run, blockedMs: showBlockMs } = await withLongestBlock(async () => vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Reading ${basename(facts.path)}` }, () => runOfWritten(ctx, rollouts, facts, result, fromWorker)));
  ctx.log.info(`showed the written run in ${Date.now() - shown} ms, longest event-loop block ${showBlockMs.toFixed(0)} ms`);
  if (run) {
    const revealed = Date.now();
    const { blockedMs: revealBlockMs } = await withLongestBlock(async () => {
      try {
        await ctx.treeView.reveal(ctx.treeProvider.nodeForRun(run), { select: true, focus: false, expand: true });
      } catch (e) {
        ctx.log.warn(`could not reveal ${run.id}: ${String(e)}`);
      }
    });
    ctx.log.info(`revealed the written run in ${Date.now() - revealed} ms, longest event-loop block ${revealBlockMs.toFixed(0)} ms`);
  }
  const c = run ? countRun(run) : undefined;
  return { path: facts.path, tasks: run?.tasks.length ?? facts.tasks, attempts: c?.total ?? facts.attempts, missingPaths: facts.missingPaths, problems: facts.problems.length };
}
