// Reads a NeMo Gym `<rollouts stem>_run_summary.json` into the model (docs/run-summary.md): identity, run files
// and stale files (checked on disk now: nemo/runFiles.ts), tasks → attempts with their evidence, and every problem
// placed at its JSON path. A rollouts file with no summary yet is read through the summary built in memory
// (readNemoRollouts).
import * as path from 'node:path';
import type { EntryType, FsPort } from '../fs/port';
import type { NamedReason, Problem, Run, RunFile } from '../model';
import { buildRunSummary, cleanStaleTemps, outputPaths, rolloutsPathForSummary, runSummaryPathFor, RUN_SUMMARY_SUFFIX, serializeSummary, UnreadableRunFile } from '../summary';
import type { RunSummaryDocument } from '../schemas/runSummary';
import { parseJsonDocument, problemAt, type JsonDocument } from './jsonFile';
import { resolveRel } from './nemo/repeatEvidence';
import { readTasks } from './nemo/repeats';
import { openSummaryDocument, placeDeferred, type TaskFeed } from './nemo/summaryDoc';
import { LARGE_DOCS } from './largeDocs';
import {
  fileLabel, isObj, normNamed, normTasks, normTasksFed, str, type NormTask,
} from './nemo/summaryShape';
import { healthOf, notAFile, outdatedBy, runFilesOf } from './nemo/runFiles';
import { isInside } from '../containment';
import { gather } from '../fs/gather';
import { TimeSlice } from '../turn';
import { distinctNormTasks, duplicateTaskMessage } from './distinctTasks';


/**
 * A writer killed mid-write leaves `.<summary>.<pid>.<hex>.tmp` beside the summary: the next read removes those of
 * writers no longer alive (as the next write does). Only with a port that can remove files (not in an untrusted
 * workspace, whose port is read-only). Best effort.
 */
async function cleanTempsOnRead(fs: FsPort, summaryPath: string): Promise<void> {
  if (!fs.remove) return;
  try { await cleanStaleTemps(fs, summaryPath); } catch { /* best effort */ }
}

/** `workerMinBytes`: from this size on the summary is parsed on a worker where it can (nemo/summaryDoc.ts). */
export async function readRunSummary(fs: FsPort, summaryPath: string, workerMinBytes?: number): Promise<Run> {
  await cleanTempsOnRead(fs, summaryPath);
  const { doc, validated, feed } = await openSummaryDocument(fs, summaryPath, workerMinBytes);
  const run = await runFromSummaryDocument(fs, doc, {
    summaryPath, anchor: summaryPath, virtual: false, ownsValue: true, ...(validated ? { validated } : {}), ...(feed ? { feed } : {}),
  });
  return doc.ok && isObj(doc.value) ? run : (await fromRolloutsInstead(fs, run, summaryPath)) ?? run;
}

/**
 * A summary that cannot be read at all (cut off, not JSON, too deep, not a file, not an object) beside the rollouts
 * it summarises: the run as the rollouts and their sidecars give it (readNemoRollouts), under the summary's name,
 * with the summary's problems and a note, rather than an empty run hiding every task the rollouts hold.
 */
async function fromRolloutsInstead(fs: FsPort, broken: Run, summaryPath: string): Promise<Run | undefined> {
  const rolloutsPath = rolloutsPathForSummary(summaryPath);
  if ((await fs.stat(rolloutsPath))?.type !== 'file') return undefined;
  const { summaryIsVirtual: _virtual, ...run } = await readNemoRollouts(fs, rolloutsPath);
  const note: Problem = { file: summaryPath, severity: 'info', code: 'read-from-rollouts',
    message: `the run summary cannot be read: the run is read from ${path.posix.basename(rolloutsPath)} and its sidecars instead (Write Run Summary writes it again)` };
  return { ...run, id: broken.id, anchor: broken.anchor, summaryPath, problems: [...broken.problems, note, ...run.problems] };
}

/** A rollouts file that has no summary yet: the summary is built in memory and read like a written one. */
export async function readNemoRollouts(fs: FsPort, rolloutsPath: string): Promise<Run> {
  const summaryPath = runSummaryPathFor(rolloutsPath);
  await cleanTempsOnRead(fs, summaryPath);
  let built: Awaited<ReturnType<typeof buildRunSummary>>;
  try {
    built = await buildRunSummary(fs, rolloutsPath, {});
  } catch (e) {
    if (!(e instanceof UnreadableRunFile)) throw e;
    const problem: Problem = { file: e.file, severity: 'error', code: 'unreadable', message: e.message };
    return emptyRun({ summaryPath, anchor: rolloutsPath, virtual: true, rolloutsPath }, path.posix.dirname(summaryPath), [problem]);
  }
  const text = JSON.stringify(built.document, null, 2);
  const doc: JsonDocument = { ...parseJsonDocument(rolloutsPath, text, 'run summary'), path: rolloutsPath };
  // The builder reads only regular files: a rollouts, failures or materialized inputs file that is something else
  // would be a run without it, unexplained (the writer refuses such a run; the reader says why it has no rows).
  const odd: Problem[] = [];
  for (const [key, p] of Object.entries(outputPaths(rolloutsPath))) {
    const st = await fs.stat(p);
    if (st && st.type !== 'file') odd.push(notAFile(p, fileLabel(key).toLowerCase(), st.type));
  }
  return runFromSummaryDocument(fs, doc, {
    summaryPath, anchor: rolloutsPath, virtual: true, rolloutsPath, extraProblems: [...odd, ...built.problems as Problem[]], ownWriter: true,
  });
}

interface SummaryContext {
  summaryPath: string;
  anchor: string;
  virtual: boolean;
  rolloutsPath?: string;
  extraProblems?: Problem[];
  /** What the verifier folders hold, when known without the disk (a summary just written): see runFromWrittenSummary. */
  listings?: ReadonlyMap<string, [string, EntryType][] | undefined>;
  /**
   * The document is the one our writer built a moment ago (its type is the written layout, which the read schema
   * accepts by construction): it is not validated again. Validating a 40,000-repeat document takes ~0.5 s of the
   * extension host's thread in one piece.
   */
  ownWriter?: true;
  /** The schema's problems are already the document's (checked where it was parsed: nemo/summaryDoc.ts). */
  validated?: true;
  /** The document's value is this read's own (read from the file here): its tasks may be let go as they are read. */
  ownsValue?: true;
  /** The tasks still coming from the summary worker, and its schema's problems (nemo/summaryDoc.ts). */
  feed?: TaskFeed;
}

/** ctrf.json stats asked per batch by runFromWrittenSummary. */
const CTRF_STAT_BATCH = 2048;

/**
 * The run of a summary writeRunSummary just wrote, from the document in memory: its evidence is what the writer found
 * a moment ago (each verifier folder's listing is taken from the document's own paths), so the run's folders are not
 * read a second time. The writer's problems (cut-off or duplicate rows, missing paths, …) are the run's problems.
 */
export async function runFromWrittenSummary(fs: FsPort, written: { path: string; document: unknown; bytes?: Uint8Array; problems: Problem[] },
  rolloutsPath: string): Promise<Run> {
  const listings = await writtenListings(fs, written.path, written.document);
  // The text is only needed to place a problem at its line: made then, not always (a 40k-repeat document's 38 MB
  // held the extension host ~0.9 s in one decode). Without the bytes (a writer that streamed the file) it is the
  // document serialized again: the writer writes exactly serializeSummary(document).
  let text: string | undefined;
  const jsonDoc: JsonDocument = {
    path: written.path,
    get text() {
      return (text ??= written.bytes ? new TextDecoder().decode(written.bytes) : serializeSummary(written.document as RunSummaryDocument));
    },
    value: written.document, ok: true, problems: [],
  };
  return runFromSummaryDocument(fs, jsonDoc, {
    summaryPath: written.path, anchor: written.path, virtual: false, rolloutsPath, extraProblems: writerOwnProblems(written), listings, ownWriter: true,
  });
}

/** The writer's problems the run keeps (its missing paths are the summary's own `missing_paths`, raised again from it). */
function writerOwnProblems(written: { path: string; problems: Problem[] }): Problem[] {
  return written.problems.filter((p) => !(p.file === written.path && p.code === 'missing-path'));
}

/** What each verifier folder a just-written summary names holds, from its paths (and ctrf.json asked in batches). */
async function writtenListings(fs: FsPort, summaryPath: string, document: unknown): Promise<Map<string, [string, EntryType][] | undefined>> {
  const root = path.posix.dirname(summaryPath);
  const listings = new Map<string, [string, EntryType][] | undefined>();
  const doc = document as { tasks?: { repeats?: Record<string, unknown>[] }[] };
  const slice = new TimeSlice();
  for (const t of Array.isArray(doc.tasks) ? doc.tasks : []) {
    if (slice.due) await slice.yield(); // (40k repeats: the extension host gets a turn)
    for (const r of Array.isArray(t.repeats) ? t.repeats : []) {
      const logs = str(r.verifier_logs);
      if (!logs) continue;
      const dir = resolveRel(root, logs);
      const entries: [string, EntryType][] = [];
      for (const [key, type] of [['test_stdout', 'file'], ['reward_file', 'file'], ['trajectory', 'file'], ['artifacts', 'dir']] as const) {
        const rel = str(r[key]);
        if (!rel) continue;
        const abs = resolveRel(root, rel);
        if (path.posix.dirname(abs) === dir) entries.push([path.posix.basename(abs), type]);
      }
      listings.set(dir, entries);
    }
  }
  // The summary names no ctrf.json (the writer does not list it): whether each folder holds one is asked in batches.
  const dirs: string[] = [];
  for (const d of listings.keys()) {
    if (isInside(root, d)) dirs.push(d);
    if ((dirs.length & 255) === 0 && slice.due) await slice.yield();
  }
  for (let i = 0; i < dirs.length; i += CTRF_STAT_BATCH) {
    const batch = dirs.slice(i, i + CTRF_STAT_BATCH);
    const { stats } = await gather(fs, [], [], batch.map((d) => `${d}/ctrf.json`));
    batch.forEach((d, k) => { if (stats[k]?.type === 'file') listings.get(d)!.push(['ctrf.json', 'file']); });
  }
  return listings;
}

function emptyRun(ctx: SummaryContext, root: string, problems: Problem[]): Run {
  const rolloutsPath = ctx.rolloutsPath ?? rolloutsPathForSummary(ctx.summaryPath);
  return {
    id: `nemo-gym:${ctx.anchor}`, kind: 'nemo-gym', root, anchor: ctx.anchor,
    label: path.posix.basename(ctx.summaryPath), identity: {}, state: 'complete', files: [], problems,
    unvalidated: [], skipped: [], tasks: [], summaryPath: ctx.summaryPath, rolloutsPath,
    ...(ctx.virtual ? { summaryIsVirtual: true } : {}),
  };
}

/** Identity and label of a run summary: its target, taskset, agent, dataset and sources. */
function identityOf(s: Record<string, unknown>, summaryPath: string): { identity: Record<string, string | null>; label: string } {
  const dataset = isObj(s.dataset) ? s.dataset : {};
  const dsName = str(dataset.name);
  const dsVersion = str(dataset.version);
  const identity: Record<string, string | null> = {
    target: str(s.target),
    taskset: str(s.taskset),
    agent: str(s.agent),
    dataset: dsName ? (dsVersion ? `${dsName}@${dsVersion}` : dsName) : null,
    dataset_source: str(dataset.source),
    task_source: str(s.task_source),
    result_task_source: str(s.result_task_source),
  };
  if (s.schema_version !== undefined) identity.schema_version = String(s.schema_version);
  const name = path.posix.basename(summaryPath);
  const stem = name.endsWith(RUN_SUMMARY_SUFFIX) ? name.slice(0, -RUN_SUMMARY_SUFFIX.length) : name;
  const label = [identity.taskset ?? dsName ?? identity.target ?? stem, identity.agent].filter(Boolean).join(' · ');
  return { identity, label: label || stem };
}

/** One problem per `missing_paths` entry, naming the attempt whose row names it. */
function missingPathProblems(
  doc: JsonDocument, root: string, s: Record<string, unknown>, whoByMissing: ReadonlyMap<string, string>,
  ctx: SummaryContext, problems: Problem[],
): void {
  const extra = ctx.extraProblems ?? [];
  const missingPaths = Array.isArray(s.missing_paths) ? s.missing_paths : [];
  missingPaths.forEach((m, i) => {
    const rel = str(m);
    if (!rel || !isInside(root, resolveRel(root, rel))) return; // an outside path is flagged where its row names it
    const who = whoByMissing.get(resolveRel(root, rel));
    // A summary built in memory: the builder has already said so about the same path.
    if (ctx.virtual && extra.some((p) => p.code === 'missing-path' && p.message.includes(rel))) return;
    problems.push(problemAt(doc, ['missing_paths', i], 'error', 'missing-path',
      `${rel} is named by ${who ? `the result row of ${who}` : 'a result row'} but is not on disk`));
  });
}

/** Builds the run from a parsed (or unparsable) summary document. Never throws for bad content. */
export async function runFromSummaryDocument(fs: FsPort, doc: JsonDocument, ctx: SummaryContext): Promise<Run> {
  const root = path.posix.dirname(ctx.summaryPath);
  const extra = ctx.extraProblems ?? [];
  const problems: Problem[] = [...doc.problems];
  // The schema's problems from the summary worker come once it has checked the last task: put where they would have
  // been had they come with the document's own (as they do when it is read here).
  const schemaAt = problems.length;
  const late = async () => { if (ctx.feed) problems.splice(schemaAt, 0, ...await ctx.feed.late()); };
  if (!doc.ok) {
    await late();
    return emptyRun(ctx, root, [...extra, ...problems]);
  }
  const s = doc.value;
  if (!isObj(s)) {
    problems.push(problemAt(doc, [], 'error', 'schema', 'the run summary is not a JSON object'));
    await late();
    await placeDeferred(doc, problems);
    return emptyRun(ctx, root, [...extra, ...problems]);
  }
  if (!ctx.ownWriter && !ctx.validated) problems.push(...await LARGE_DOCS['nemo-summary'].schemaProblems(doc));

  const { identity, label } = identityOf(s, ctx.summaryPath);
  const files = await runFilesOf(fs, doc, root, s, problems);
  const outdated = ctx.virtual ? false : await outdatedBy(fs, doc, ctx.summaryPath, files, problems);
  // The rollouts the writer rewrites are only ever beside the summary (never where an outside files.rollouts points).
  const rolloutsFile = files.find((f) => f.key === 'rollouts' && f.path && !f.outside && path.posix.dirname(f.path) === root);
  const rolloutsPath = ctx.rolloutsPath ?? rolloutsFile?.path ?? rolloutsPathForSummary(ctx.summaryPath);
  // The verdicts are read while the first tasks' folders are listed (readTasks builds nothing before they are in).
  const health = healthOf(fs, files, problems);

  // A summary read from its file is this read's own: each parsed task is let go once its attempts are built.
  const list = ctx.ownsValue && Array.isArray(s.tasks) ? s.tasks : undefined;
  const release = list ? (t: NormTask) => { if (typeof t.jsonPath[1] === 'number') list[t.jsonPath[1]] = undefined; } : undefined;
  const listed = ctx.feed && Array.isArray(s.tasks) ? normTasksFed(s.tasks, ctx.feed.more) : normTasks(s.tasks);
  const fed = distinctNormTasks(listed, (t, id, renamed) => {
    problems.push(problemAt(doc, t.jsonPath, 'warning', 'duplicate-task', duplicateTaskMessage(id, renamed)));
  });
  const { tasks, whoByMissing } = await readTasks(fs, doc, root, fed, health, problems, ctx.listings, release);
  missingPathProblems(doc, root, s, whoByMissing, ctx, problems);

  const ts = identity.task_source;
  const rts = identity.result_task_source;
  if (ts && rts && ts !== rts) {
    problems.push(problemAt(doc, ['result_task_source'], 'warning', 'task-source-mismatch',
      `the result rows carry task_source "${rts}" but the run was materialized with "${ts}": another run may have written the results file`));
  }

  const unvalidated: NamedReason[] = normNamed(s.unvalidated);
  const skipped: NamedReason[] = normNamed(s.skipped);

  if (ctx.virtual) {
    // A virtual summary has no file of its own: its problems keep the file they name but no position in it.
    for (const p of problems) if (p.file === doc.path) { delete p.jsonPath; delete p.line; delete p.column; }
  }
  await late();
  await placeDeferred(doc, problems);
  problems.unshift(...extra);
  const running = problems.some((p) => p.code === 'incomplete-tail');
  return {
    id: `nemo-gym:${ctx.anchor}`, kind: 'nemo-gym', root, anchor: ctx.anchor, label, identity,
    state: running ? 'running' : 'complete', files, problems, unvalidated, skipped, tasks,
    summaryPath: ctx.summaryPath, rolloutsPath, ...(ctx.virtual ? { summaryIsVirtual: true } : {}),
    ...(outdated ? { summaryOutdated: true } : {}),
  };
}
