// Reads a viewer data dir (docs/formats.md#viewer-data): a dataset (projects/<p>/datasets/<d>/summary.json) becomes a run whose tasks
// hold one attempt per (cell, attempt), with the trace as evidence and the summary's own aggregates cross-checked;
// a training run (projects/<p>/runs/<r>/run.json) is in viewerTraining.ts.
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import type { Attempt, Evidence, Problem, Run, RunFile, Task } from '../model';
import { isPass } from '../model';
import { DatasetMetaSchema } from '../schemas/viewer';
import { issueProblems, problemAt, readJsonDocument, type JsonDocument } from './jsonFile';
import { placeDeferred, readSummaryDocument, SUMMARY_WORKER_MIN_BYTES } from './nemo/summaryDoc';
import { LARGE_DOCS } from './largeDocs';
import { crossCheckViewerSummarySliced, type CellRewards } from './viewerCrossCheck';
import { readViewerProject, supportLine, type ViewerProjectInfo } from './viewerProject';
import { isInside, outsideMessage } from '../containment';
import { TimeSlice } from '../turn';

export { readViewerTrainingRun } from './viewerTraining';
export { readViewerProject } from './viewerProject';
export { summaryIssues } from './viewerSummaryIssues';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * `slice`: the slices of time its checks and reads of the tasks run in (tests count its turns). A summary.json of
 * `workerMinBytes` or more is read, parsed and checked on the summary worker (nemo/summaryDoc.ts), where the port's
 * paths are Node's: its JSON.parse alone held the extension host ~0.5 s at 10,000 tasks.
 */
export async function readViewerDataset(fs: FsPort, datasetDir: string, slice = new TimeSlice(),
  workerMinBytes = SUMMARY_WORKER_MIN_BYTES): Promise<Run> {
  const datasetId = path.posix.basename(datasetDir);
  const projectDir = path.posix.dirname(path.posix.dirname(datasetDir));
  const project = await readViewerProject(fs, projectDir);
  const problems: Problem[] = [...project.problems];
  const summaryPath = `${datasetDir}/summary.json`;
  const metaPath = `${datasetDir}/dataset.json`;
  // traces/ is listed while summary.json is read (both off this thread where the port can: listNames, the summary
  // worker), not after it. Awaited below, where its answer (or error) is taken.
  const tracesDir = `${datasetDir}/traces`;
  const tracesStatAsked = fs.stat(tracesDir);
  const namesAsked = tracesStatAsked.then((st) => st?.type !== 'dir' ? []
    : fs.listNames ? fs.listNames(tracesDir) : fs.readDir(tracesDir).then((es) => es.map(([n]) => n)));
  tracesStatAsked.catch(() => undefined);
  namesAsked.catch(() => undefined);

  let datasetLabel = datasetId;
  const metaStat = await fs.stat(metaPath);
  if (metaStat) {
    const meta = await readJsonDocument(fs, metaPath, 'dataset.json');
    problems.push(...meta.problems);
    if (meta.ok) {
      const parsed = DatasetMetaSchema.safeParse(meta.value);
      if (!parsed.success) problems.push(...issueProblems(meta, parsed.error.issues, 'dataset.json'));
      if (isObj(meta.value) && typeof meta.value.label === 'string') datasetLabel = meta.value.label;
    }
  }

  const { doc, validated } = await readSummaryDocument(fs, summaryPath, workerMinBytes, undefined, undefined, 'viewer-summary');
  problems.push(...doc.problems);
  const files: RunFile[] = [
    project.file,
    { key: 'dataset', label: 'Dataset', path: metaStat ? metaPath : null, present: metaStat !== undefined },
    { key: 'summary', label: 'Summary', path: summaryPath, present: !doc.problems.some((p) => p.code === 'missing-file') },
  ];
  const tracesStat = await tracesStatAsked;
  files.push({ key: 'traces', label: 'Traces', path: tracesStat ? tracesDir : null, present: tracesStat?.type === 'dir', isDir: true });

  const s = isObj(doc.value) ? doc.value : {};
  // Checking and reading 10,000 tasks takes seconds: both in slices of time, with turns of the event loop between.
  if (doc.ok && !validated) problems.push(...await LARGE_DOCS['viewer-summary'].schemaProblems(doc, slice));
  const models = Array.isArray(s.models) ? s.models.filter((m): m is string => typeof m === 'string') : [];
  const harnesses = Array.isArray(s.harnesses) ? s.harnesses.filter((m): m is string => typeof m === 'string') : [];
  const identity: Record<string, string | null> = {
    project: project.id,
    project_label: project.label,
    dataset: datasetId,
    models: models.length ? models.join(', ') : null,
    harnesses: harnesses.length ? harnesses.join(', ') : null,
    support: supportLine(project.support),
  };

  // Traces live in traces/: one listing answers for all of them; a trace elsewhere is stat'ed (after the tasks, all
  // at once: no await per attempt). The names go into the set in slices of time: 75,000 of them took one turn of
  // ~150 ms.
  const traceNames = new Set<string>();
  if (tracesStat?.type === 'dir') {
    const names = await namesAsked;
    for (let i = 0; i < names.length; i++) {
      traceNames.add(names[i]);
      if ((i & 1023) === 1023 && slice.due) await slice.yield();
    }
  }
  const traces: TraceLookup = {
    dir: tracesDir, names: traceNames, normalDir: path.posix.resolve(datasetDir) === datasetDir, elsewhere: new Map(),
  };
  const tasks: Task[] = [];
  const cells: CellRewards[] = [];
  const rawTasks = Array.isArray(s.tasks) ? s.tasks : [];
  const before = problems.length;
  const readTasks = async () => {
    for (let ti = 0; ti < rawTasks.length; ti++) {
      if (slice.due) await slice.yield();
      const t = rawTasks[ti];
      if (!isObj(t)) continue;
      tasks.push(readViewerTask(traces, doc, datasetDir, t, ti, project, problems, cells));
    }
  };
  await readTasks();
  const unknown = [...traces.elsewhere].filter(([, v]) => v === undefined).map(([k]) => k);
  if (unknown.length) {
    // Traces outside traces/ (rare): stat'ed, then the tasks read again knowing them.
    for (const abs of unknown) traces.elsewhere.set(abs, (await fs.stat(abs)) !== undefined);
    tasks.length = 0;
    cells.length = 0;
    problems.length = before;
    await readTasks();
  }
  if (doc.ok && isObj(doc.value)) problems.push(...await crossCheckViewerSummarySliced(doc, s, cells, tasks.length, slice));
  await placeDeferred(doc, problems); // problems found here about a summary.json parsed on the worker get their lines

  const recorded: Record<string, unknown> = {};
  for (const k of ['k_max', 'summary', 'by_model', 'by_harness']) if (s[k] !== undefined) recorded[k] = s[k];
  return {
    id: `viewer-data:${summaryPath}`, kind: 'viewer-data', root: datasetDir, anchor: summaryPath,
    label: `${project.label} / ${datasetLabel}`, identity, state: 'complete', files, problems,
    unvalidated: [], skipped: [], tasks, recorded, ...(Object.keys(project.support).length ? { support: project.support } : {}),
  };
}

/**
 * Where the traces of a dataset are looked up: the listing of traces/; a trace elsewhere in the dataset is stat'ed
 * (`elsewhere`: its path, undefined until stat'ed).
 */
interface TraceLookup {
  dir: string;
  names: ReadonlySet<string>;
  /** The dataset folder is a normal absolute path (path.resolve leaves it as it is). */
  normalDir: boolean;
  elsewhere: Map<string, boolean | undefined>;
}

/**
 * The absolute path of a trace named relative to the dataset: a plain `traces/x.json` (no '.', '..' or empty segment)
 * under a dataset folder that is already normal is joined without path.resolve (80,000 of them in a big dataset);
 * anything else goes through resolve.
 */
function traceAbs(datasetDir: string, normalDir: boolean, trace: string): string {
  return normalDir && trace.charCodeAt(0) !== 0x2f && !/(^|\/)\.{0,2}(\/|$)/.test(trace)
    ? `${datasetDir}/${trace}` : path.posix.resolve(datasetDir, trace);
}

/**
 * Whether the trace at `abs` (its last '/' at `slash`, its name `label`) is on disk: by the listing of traces/, else
 * as stat'ed. A trace elsewhere not stat'ed yet is noted (and taken as there until the tasks are read again).
 */
function traceOnDisk(traces: TraceLookup, abs: string, slash: number, label: string): boolean {
  if (abs.slice(0, Math.max(slash, 1)) === traces.dir) return traces.names.has(label);
  const known = traces.elsewhere.get(abs);
  if (known !== undefined) return known;
  traces.elsewhere.set(abs, undefined);
  return true;
}

function readViewerTask(
  traces: TraceLookup, doc: JsonDocument, datasetDir: string, t: Obj, ti: number,
  project: ViewerProjectInfo, problems: Problem[], cells: CellRewards[],
): Task {
  const id = str(t.id) ?? `task-${ti}`;
  const details: Record<string, string | number | boolean | null> = {};
  for (const k of ['difficulty', 'difficulty_level', 'reward_mode', 'question', 'answer']) {
    const v = t[k];
    if (typeof v === 'string') details[k] = v.length > 500 ? `${v.slice(0, 500)}…` : v;
    else if (typeof v === 'number' || typeof v === 'boolean') details[k] = v;
  }
  const attempts: Attempt[] = [];
  const cellMap = isObj(t.cells) ? t.cells : {};
  for (const [cellKey, cell] of Object.entries(cellMap)) {
    if (!isObj(cell)) continue;
    const bar = cellKey.indexOf('|');
    const model = bar < 0 ? cellKey : cellKey.slice(0, bar);
    const harness = bar < 0 ? '' : cellKey.slice(bar + 1);
    const tier = project.support[harness];
    const tierText = tier ? (tier.caveats.length ? `${tier.tier}: ${tier.caveats.join('; ')}` : tier.tier) : undefined;
    const list = Array.isArray(cell.attempts) ? cell.attempts : [];
    const rewards: (number | null)[] = [];
    const numbers: number[] = [];
    for (let ai = 0; ai < list.length; ai++) {
      const a = list[ai];
      if (!isObj(a)) continue;
      const n = num(a.attempt);
      const attemptNo = n !== null && n >= 1 ? Math.floor(n) : ai + 1;
      const reward = num(a.reward);
      rewards.push(reward);
      numbers.push(attemptNo);
      const evidence: Evidence[] = [];
      const missing: string[] = [];
      const trace = str(a.trace);
      if (trace) {
        const abs = traceAbs(datasetDir, traces.normalDir, trace);
        const slash = abs.lastIndexOf('/');
        const label = abs.slice(slash + 1);
        if (!isInside(datasetDir, abs)) {
          evidence.push({ kind: 'trace', label, path: abs, isDir: false, present: false, outside: true });
          problems.push(problemAt(doc, ['tasks', ti, 'cells', cellKey, 'attempts', ai, 'trace'], 'warning', 'outside-run',
            outsideMessage(`the trace of ${id} ${cellKey} attempt ${attemptNo}`, trace, datasetDir)));
        } else if (traceOnDisk(traces, abs, slash, label)) {
          evidence.push({ kind: 'trace', label, path: abs, isDir: false, present: true });
        } else {
          evidence.push({ kind: 'trace', label, path: abs, isDir: false, present: false, namedBy: 'summary.json names it' });
          missing.push(abs);
          problems.push(problemAt(doc, ['tasks', ti, 'cells', cellKey, 'attempts', ai, 'trace'], 'warning', 'missing-trace',
            `${trace} (trace of ${id} ${cellKey} attempt ${attemptNo}) is not on disk`));
        }
      }
      const adetails: Record<string, string | number | boolean | null> = tierText === undefined ? { model, harness } : { model, harness, tier: tierText };
      const outcome = reward === null ? 'infra-error' : isPass(reward) ? 'passed' : 'failed';
      const attemptId = `${id}#${cellKey}#${attemptNo}`;
      const durationSec = num(a.elapsed_sec);
      const nTurns = num(a.n_turns);
      // (key order as written: the CLI's --json prints attempts as they are)
      const attempt: Attempt = reward === null
        ? { id: attemptId, index: attemptNo - 1, label: `#${attemptNo}`, outcome, reward, failure: { reason: 'the verifier never ran' },
          durationSec, nTurns, cell: cellKey, evidence, missing, details: adetails }
        : { id: attemptId, index: attemptNo - 1, label: `#${attemptNo}`, outcome, reward, durationSec, nTurns, cell: cellKey, evidence, missing, details: adetails };
      const method = str(a.reward_method);
      if (method) attempt.rewardMethod = method;
      attempts.push(attempt);
    }
    const pa = cell.passed_at;
    cells.push({
      taskIndex: ti, model, harness, rewards, attemptNumbers: numbers, cellKey,
      ...(pa === undefined ? {} : { recordedPassedAt: typeof pa === 'number' ? pa : null }),
    });
  }
  const index = num(t.index);
  return { id, ...(index !== null ? { index } : {}), label: id, attempts, details };
}
