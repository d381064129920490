// Reads a NeMo Gym `<rollouts stem>_run_summary.json` into the model (docs/run-summary.md): identity, run files
// (checked on disk now), stale files, tasks → attempts with their evidence, and every problem placed at its JSON
// path. A rollouts file with no summary yet is read through the summary built in memory (readNemoRollouts).
import * as path from 'node:path';
import type { EntryType, FsPort } from '../fs/port';
import type { Attempt, FailureDetail, NamedReason, Problem, Run, RunFile, Task } from '../model';
import { classifyNemoRepeat } from '../outcome';
import { buildRunSummary, cleanStaleTemps, rolloutsPathForSummary, runSummaryPathFor, RUN_SUMMARY_SUFFIX, UnreadableRunFile } from '../summary';
import { issueProblems, parseJsonDocument, problemAt, readJsonDocument, type JsonDocument } from './jsonFile';
import { repeatEvidence, resolveRel } from './nemo/repeatEvidence';
import {
  SummaryReadSchema, bool, fileLabel, isObj, normFiles, normNamed, normStale, normTasks, num, str,
  type NormRepeat, type NormTask,
} from './nemo/summaryShape';
import { readVerdicts, verdictKey, type Health } from './nemo/verdicts';
import { isInside, outsideMessage } from '../containment';

/** Repeats whose evidence is checked at once. */
const REPEAT_CONCURRENCY = 32;


/**
 * A writer killed mid-write leaves `.<summary>.<pid>.<hex>.tmp` beside the summary: the next read removes those of
 * writers no longer alive (as the next write does). Only with a port that can remove files (not in an untrusted
 * workspace, whose port is read-only). Best effort.
 */
async function cleanTempsOnRead(fs: FsPort, summaryPath: string): Promise<void> {
  if (!fs.remove) return;
  try { await cleanStaleTemps(fs, summaryPath); } catch { /* best effort */ }
}

export async function readRunSummary(fs: FsPort, summaryPath: string): Promise<Run> {
  await cleanTempsOnRead(fs, summaryPath);
  const doc = await readJsonDocument(fs, summaryPath, 'run summary');
  return runFromSummaryDocument(fs, doc, { summaryPath, anchor: summaryPath, virtual: false });
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
  return runFromSummaryDocument(fs, doc, {
    summaryPath, anchor: rolloutsPath, virtual: true, rolloutsPath, extraProblems: built.problems as Problem[],
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
}

/**
 * The run of a summary writeRunSummary just wrote, from the document in memory: its evidence is what the writer found
 * a moment ago (each verifier folder's listing is taken from the document's own paths), so the run's folders are not
 * read a second time. The writer's problems (cut-off or duplicate rows, missing paths, …) are the run's problems.
 */
export async function runFromWrittenSummary(fs: FsPort, written: { path: string; document: unknown; text: string; problems: Problem[] },
  rolloutsPath: string): Promise<Run> {
  const root = path.posix.dirname(written.path);
  const listings = new Map<string, [string, EntryType][] | undefined>();
  const doc = written.document as { tasks?: { repeats?: Record<string, unknown>[] }[] };
  for (const t of Array.isArray(doc.tasks) ? doc.tasks : []) {
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
  const jsonDoc: JsonDocument = { path: written.path, text: written.text, value: written.document, ok: true, problems: [] };
  const fromWriter = written.problems.filter((p) => !(p.file === written.path && p.code === 'missing-path'));
  return runFromSummaryDocument(fs, jsonDoc, { summaryPath: written.path, anchor: written.path, virtual: false, rolloutsPath, extraProblems: fromWriter, listings });
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

/** Builds the run from a parsed (or unparsable) summary document. Never throws for bad content. */
export async function runFromSummaryDocument(fs: FsPort, doc: JsonDocument, ctx: SummaryContext): Promise<Run> {
  const root = path.posix.dirname(ctx.summaryPath);
  const extra = ctx.extraProblems ?? [];
  const problems: Problem[] = [...doc.problems];
  if (!doc.ok) return emptyRun(ctx, root, [...extra, ...problems]);
  const s = doc.value;
  if (!isObj(s)) {
    problems.push(problemAt(doc, [], 'error', 'schema', 'the run summary is not a JSON object'));
    return emptyRun(ctx, root, [...extra, ...problems]);
  }
  const parsed = SummaryReadSchema.safeParse(s);
  if (!parsed.success) problems.push(...issueProblems(doc, parsed.error.issues, 'run summary'));

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
  const name = path.posix.basename(ctx.summaryPath);
  const stem = name.endsWith(RUN_SUMMARY_SUFFIX) ? name.slice(0, -RUN_SUMMARY_SUFFIX.length) : name;
  const label = [identity.taskset ?? dsName ?? identity.target ?? stem, identity.agent].filter(Boolean).join(' · ');

  // Run files, checked on disk now; stale files replace the null entry of their key.
  const files: RunFile[] = [];
  const stale = normStale(s.stale_files);
  const staleKeys = new Set(stale.map((x) => x.key));
  for (const { key, rel } of normFiles(s.files)) {
    if (rel === null && staleKeys.has(key)) continue;
    if (rel === null) { files.push({ key, label: fileLabel(key), path: null, present: false }); continue; }
    const abs = resolveRel(root, rel);
    if (!isInside(root, abs)) {
      files.push({ key, label: fileLabel(key), path: abs, present: false, outside: true });
      problems.push(problemAt(doc, ['files', key], 'warning', 'outside-run', outsideMessage(`files.${key}`, rel, root)));
      continue;
    }
    const st = await fs.stat(abs);
    files.push({ key, label: fileLabel(key), path: abs, present: st !== undefined, ...(st?.type === 'dir' ? { isDir: true } : {}) });
    if (!st) {
      problems.push(problemAt(doc, ['files', key], 'warning', 'missing-file',
        `${rel} (${fileLabel(key).toLowerCase()}) is listed by the run summary but is no longer on disk`));
    }
  }
  for (const x of stale) {
    const abs = resolveRel(root, x.rel);
    if (!isInside(root, abs)) {
      files.push({ key: x.key, label: `${fileLabel(x.key)} (stale)`, path: abs, present: false, stale: true, outside: true });
      problems.push(problemAt(doc, x.jsonPath, 'warning', 'outside-run', outsideMessage(`stale_files.${x.key}`, x.rel, root)));
      continue;
    }
    const present = (await fs.stat(abs)) !== undefined;
    files.push({ key: x.key, label: `${fileLabel(x.key)} (stale)`, path: abs, present, stale: true });
    problems.push(problemAt(doc, x.jsonPath, 'warning', 'stale-file',
      `${x.rel} was left by an earlier run under this run's name: its rows are not this run's`));
  }

  const outdated = ctx.virtual ? false : await outdatedBy(fs, doc, ctx.summaryPath, files, problems);

  // The rollouts the writer rewrites are only ever beside the summary (never where an outside files.rollouts points).
  const rolloutsFile = files.find((f) => f.key === 'rollouts' && f.path && !f.outside && path.posix.dirname(f.path) === root);
  const rolloutsPath = ctx.rolloutsPath ?? rolloutsFile?.path ?? rolloutsPathForSummary(ctx.summaryPath);

  // Health verdicts, when the summary links them and they are still there.
  let health = new Map<string, Health>();
  const verdictsFile = files.find((f) => f.key === 'rollout_verdicts' && f.present && !f.stale && f.path);
  if (verdictsFile?.path) {
    const v = await readVerdicts(fs, verdictsFile.path);
    health = v.byKey;
    problems.push(...v.problems);
  }

  // Every repeat's evidence is checked on disk; many at once, so a big run is not one file-system round trip at a
  // time. Results are assembled in document order, so problems and attempts keep a stable order.
  const normTasksList = normTasks(s.tasks);
  const jobs = normTasksList.flatMap((t) => t.repeats.map((r) => ({ t, r })));
  const results: RepeatResult[] = new Array(jobs.length);
  const listings = ctx.listings ?? await prelist(fs, root, jobs.map((j) => j.r.raw.verifier_logs));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await readRepeat(fs, doc, root, jobs[i].t, jobs[i].r, health, listings);
    }
  };
  await Promise.all(Array.from({ length: Math.min(REPEAT_CONCURRENCY, jobs.length) }, worker));
  const whoByMissing = new Map<string, string>();
  const tasks: Task[] = [];
  let k = 0;
  for (const t of normTasksList) {
    const attempts: Attempt[] = [];
    for (let j = 0; j < t.repeats.length; j++, k++) {
      const res = results[k];
      attempts.push(res.attempt);
      problems.push(...res.problems);
      for (const m of res.named) whoByMissing.set(m, res.who);
    }
    tasks.push(taskOf(t, attempts));
  }

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
  problems.unshift(...extra);
  const running = problems.some((p) => p.code === 'incomplete-tail');
  return {
    id: `nemo-gym:${ctx.anchor}`, kind: 'nemo-gym', root, anchor: ctx.anchor, label: label || stem, identity,
    state: running ? 'running' : 'complete', files, problems, unvalidated, skipped, tasks,
    summaryPath: ctx.summaryPath, rolloutsPath, ...(ctx.virtual ? { summaryIsVirtual: true } : {}),
    ...(outdated ? { summaryOutdated: true } : {}),
  };
}

/**
 * Modification times this far apart count as "written after the summary": a checkout or a copy without -p sets the
 * files' times within moments of each other in any order, and must not flag every summary.
 */
const OUTDATED_AFTER_MS = 2000;

/**
 * Whether the rollouts or failures file the summary lists changed after the summary was written (a run still
 * appending, or resumed): one warning per such file at its `files` entry, so the quick fix that rewrites the summary
 * is offered there.
 */
async function outdatedBy(fs: FsPort, doc: JsonDocument, summaryPath: string, files: RunFile[], problems: Problem[]): Promise<boolean> {
  const own = await fs.stat(summaryPath);
  if (!own) return false;
  let outdated = false;
  for (const f of files) {
    if ((f.key !== 'rollouts' && f.key !== 'failures') || !f.present || f.stale || !f.path) continue;
    const st = await fs.stat(f.path);
    if (!st || st.mtimeMs - own.mtimeMs <= OUTDATED_AFTER_MS) continue;
    outdated = true;
    problems.push(problemAt(doc, ['files', f.key], 'warning', 'summary-outdated',
      `${path.posix.basename(f.path)} changed after this summary was written: rows added since are not in it (Write Run Summary updates it)`));
  }
  return outdated;
}

function taskOf(t: NormTask, attempts: Attempt[]): Task {
  const details: Record<string, string | number | boolean | null> = {};
  const digest = attempts.find((a) => a.details?.digest)?.details?.digest;
  if (typeof digest === 'string') details.digest = digest;
  return { id: t.taskId, ...(t.index !== undefined ? { index: t.index } : {}), label: t.taskId, attempts, details };
}

interface RepeatResult {
  attempt: Attempt;
  problems: Problem[];
  /** Absolute paths this repeat names that are not on disk (for naming the attempt in missing_paths problems). */
  named: string[];
  who: string;
}

/**
 * With a backend that lists many folders at once (FsPort.listDirs: a worker thread on Node and for `file:` paths in
 * VS Code), every verifier folder of the summary is listed up front, in batches, instead of one readDir (and a stat)
 * per repeat; undefined otherwise.
 */
async function prelist(fs: FsPort, root: string, logs: unknown[]): Promise<Map<string, [string, EntryType][] | undefined> | undefined> {
  if (!fs.listDirs) return undefined;
  const dirs = [...new Set(logs.map((l) => str(l)).filter((l): l is string => !!l).map((l) => resolveRel(root, l)).filter((d) => isInside(root, d)))];
  const out = new Map<string, [string, EntryType][] | undefined>();
  try {
    for (let i = 0; i < dirs.length; i += PRELIST_BATCH) {
      const batch = dirs.slice(i, i + PRELIST_BATCH);
      const lists = await fs.listDirs(batch);
      batch.forEach((d, k) => out.set(d, lists[k]));
    }
  } catch {
    return undefined; // each repeat lists its own folder
  }
  return out;
}

const PRELIST_BATCH = 2048;

async function readRepeat(
  fs: FsPort, doc: JsonDocument, root: string, t: NormTask, r: NormRepeat, health: Map<string, Health>,
  listings?: ReadonlyMap<string, [string, EntryType][] | undefined>,
): Promise<RepeatResult> {
  const raw = r.raw;
  const who = `${t.taskId} #${r.repeat + 1}`;
  const failure: FailureDetail = {};
  const fk = str(raw.failure_kind); if (fk) failure.kind = fk;
  const fr = str(raw.failure_reason); if (fr) failure.reason = fr;
  const fc = str(raw.failure_class); if (fc) failure.class = fc;
  const fs_ = str(raw.failure_stage); if (fs_) failure.stage = fs_;
  const ft = bool(raw.failure_terminal); if (ft !== null) failure.terminal = ft;
  const sourceOutcome = str(raw.outcome) ?? '';
  const outcome = classifyNemoRepeat({
    sourceOutcome, reward: num(raw.reward), failureKind: fk, failureClass: fc, failureStage: fs_,
    agentTimedOut: bool(raw.agent_timed_out),
  });
  // A passed attempt's ctrf.json lists no failures worth reading; reading only the others keeps big runs fast.
  const ev = await repeatEvidence(fs, doc, root, raw, r.jsonPath, who, { readCtrf: outcome !== 'passed', listings });
  const named = [...ev.missing];
  for (const m of Array.isArray(raw.missing) ? raw.missing : []) {
    if (typeof m === 'string') named.push(resolveRel(root, m));
  }
  const details: Record<string, string | number | boolean | null> = {};
  const mode = str(raw.verifier_mode); if (mode) details.verifier_mode = mode;
  const mask = bool(raw.mask_sample); if (mask !== null) details.mask_sample = mask;
  const input = isObj(raw.input) ? raw.input : undefined;
  if (input && isObj(input.digests)) {
    const d = str(input.digests._ng_digest) ?? Object.values(input.digests).map(str).find(Boolean) ?? null;
    if (d) details.digest = d;
  }
  const meta = input ? (Array.isArray(input.metadata) ? input.metadata : isObj(input.metadata) ? [input.metadata] : []) : [];
  if (meta.length > 1) details.turns = meta.length;
  const first = isObj(meta[0]) ? meta[0] : undefined;
  if (first) for (const [k, v] of Object.entries(first)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') details[k] = v;
  // A masked, failed or missing repeat was never measured: its reward is null, never the 0.0 a masked row carries.
  const reward = outcome === 'infra-error' || outcome === 'missing' ? null : num(raw.reward);
  if (reward === null && num(raw.reward) !== null) details.row_reward = num(raw.reward);
  const h = t.index !== undefined ? health.get(verdictKey(t.index, r.repeat)) : undefined;
  const attempt: Attempt = {
    id: `${t.taskId}#${r.repeat}`,
    index: r.repeat,
    label: `#${r.repeat + 1}`,
    outcome,
    reward,
    ...(sourceOutcome ? { sourceOutcome } : {}),
    ...(Object.keys(failure).length ? { failure } : {}),
    ...(ev.dir ? { dir: ev.dir } : {}),
    evidence: ev.evidence,
    missing: ev.missing,
    ...(h ? { health: h } : {}),
    ...(Object.keys(details).length ? { details } : {}),
  };
  return { attempt, problems: ev.problems, named, who };
}

