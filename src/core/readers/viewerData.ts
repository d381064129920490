// Reads a viewer data dir (docs/formats.md#viewer-data): a dataset (projects/<p>/datasets/<d>/summary.json) becomes a run whose tasks
// hold one attempt per (cell, attempt), with the trace as evidence and the summary's own aggregates cross-checked;
// a training run (projects/<p>/runs/<r>/run.json) is in viewerTraining.ts.
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import type { Problem, Run, RunFile, Task } from '../model';
import { DatasetMetaSchema } from '../schemas/viewer';
import { issueProblems, problemAt, readJsonDocument } from './jsonFile';
import { openSummaryDocument, placeDeferred, SUMMARY_WORKER_MIN_BYTES } from './nemo/summaryDoc';
import { LARGE_DOCS } from './largeDocs';
import { crossCheckViewerSummarySliced, type CellRewards } from './viewerCrossCheck';
import { readViewerTask, type TaskContext, type TraceLookup } from './viewerTask';
import { readViewerProject, supportLine } from './viewerProject';
import { TimeSlice } from '../turn';
import { DistinctTaskIds, duplicateTaskMessage, renameTask } from './distinctTasks';

export { readViewerTrainingRun } from './viewerTraining';
export { readViewerProject } from './viewerProject';
export { summaryIssues } from './viewerSummaryIssues';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

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

  const { doc, validated, feed } = await openSummaryDocument(fs, summaryPath, workerMinBytes, undefined, undefined, 'viewer-summary');
  problems.push(...doc.problems);
  // From the summary worker the tasks come while they are read (`feed`), and the schema's problems once it has
  // checked the last one: put where they would have been had they come with the document's own.
  const schemaAt = problems.length;
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
  const cx: TaskContext = { traces, doc, datasetDir, project, problems, cells, cellInfo: new Map() };
  const rawTasks: unknown[] = Array.isArray(s.tasks) ? s.tasks : [];
  // Each task is let go from the summary's value once read (its raw objects are garbage from then on, not held to
  // the end of the read), up to the first task that names a trace elsewhere than traces/: from that task on the
  // tasks are kept, to be read again once those traces are stat'ed. Where each read began: tasks, cells, problems.
  let again: { ti: number; tasks: number; cells: number; problems: number } | undefined;
  const has = async (ti: number) => {
    while (ti >= rawTasks.length) if (!feed || !await feed.more()) return false;
    return true;
  };
  // One task per entry, each under its own id (readers/distinctTasks.ts): a re-read starts from the ids kept.
  let ids = new DistinctTaskIds();
  const readTasks = async (from: number) => {
    for (let ti = from; await has(ti); ti++) {
      if (slice.due) await slice.yield();
      const t = rawTasks[ti];
      if (!isObj(t)) continue;
      const noted = traces.elsewhere.size;
      const at = again ? undefined : { ti, tasks: tasks.length, cells: cells.length, problems: problems.length };
      const task = readViewerTask(cx, t, ti);
      const renamed = ids.take(task.id);
      if (renamed !== undefined) {
        problems.push(problemAt(doc, ['tasks', ti], 'warning', 'duplicate-task', duplicateTaskMessage(task.id, renamed)));
        renameTask(task, renamed);
      }
      tasks.push(task);
      if (at && traces.elsewhere.size > noted) again = at;
      if (!again) rawTasks[ti] = undefined;
    }
  };
  await readTasks(0);
  const unknown = [...traces.elsewhere].filter(([, v]) => v === undefined).map(([k]) => k);
  if (unknown.length && again) {
    // Traces outside traces/ (rare): stat'ed, then the tasks from the first that names one read again knowing them.
    for (const abs of unknown) traces.elsewhere.set(abs, (await fs.stat(abs)) !== undefined);
    tasks.length = again.tasks;
    cells.length = again.cells;
    problems.length = again.problems;
    ids = new DistinctTaskIds();
    for (const t of tasks) ids.take(t.id);
    await readTasks(again.ti);
  }
  if (feed) problems.splice(schemaAt, 0, ...await feed.late());
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
