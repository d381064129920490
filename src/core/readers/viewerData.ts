// Reads a viewer data dir (docs/formats.md#viewer-data): a dataset (projects/<p>/datasets/<d>/summary.json) becomes a run whose tasks
// hold one attempt per (cell, attempt), with the trace as evidence and the summary's own aggregates cross-checked;
// a training run (projects/<p>/runs/<r>/run.json) is in viewerTraining.ts.
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import type { Attempt, Evidence, Problem, Run, RunFile, Task } from '../model';
import { isPass } from '../model';
import { DatasetMetaSchema, ViewerSummarySchema } from '../schemas/viewer';
import { issueProblems, problemAt, readJsonDocument, type JsonDocument } from './jsonFile';
import { crossCheckViewerSummary, type CellRewards } from './viewerCrossCheck';
import { readViewerProject, supportLine, type ViewerProjectInfo } from './viewerProject';
import { isInside, outsideMessage } from '../containment';

export { readViewerTrainingRun } from './viewerTraining';
export { readViewerProject } from './viewerProject';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export async function readViewerDataset(fs: FsPort, datasetDir: string): Promise<Run> {
  const datasetId = path.posix.basename(datasetDir);
  const projectDir = path.posix.dirname(path.posix.dirname(datasetDir));
  const project = await readViewerProject(fs, projectDir);
  const problems: Problem[] = [...project.problems];
  const summaryPath = `${datasetDir}/summary.json`;
  const metaPath = `${datasetDir}/dataset.json`;

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

  const doc = await readJsonDocument(fs, summaryPath, 'dataset summary.json');
  problems.push(...doc.problems);
  const files: RunFile[] = [
    project.file,
    { key: 'dataset', label: 'Dataset', path: metaStat ? metaPath : null, present: metaStat !== undefined },
    { key: 'summary', label: 'Summary', path: summaryPath, present: !doc.problems.some((p) => p.code === 'missing-file') },
  ];
  const tracesDir = `${datasetDir}/traces`;
  const tracesStat = await fs.stat(tracesDir);
  files.push({ key: 'traces', label: 'Traces', path: tracesStat ? tracesDir : null, present: tracesStat?.type === 'dir', isDir: true });

  const s = isObj(doc.value) ? doc.value : {};
  if (doc.ok) {
    const parsed = ViewerSummarySchema.safeParse(doc.value);
    if (!parsed.success) problems.push(...issueProblems(doc, parsed.error.issues, 'summary.json'));
  }
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

  // Traces live in traces/: one listing answers for all of them; a trace elsewhere is stat'ed.
  const traceNames = tracesStat?.type === 'dir' ? new Set((await fs.readDir(tracesDir)).map(([n]) => n)) : new Set<string>();
  const traceExists = async (abs: string): Promise<boolean> =>
    path.posix.dirname(abs) === tracesDir ? traceNames.has(path.posix.basename(abs)) : (await fs.stat(abs)) !== undefined;
  const tasks: Task[] = [];
  const cells: CellRewards[] = [];
  const rawTasks = Array.isArray(s.tasks) ? s.tasks : [];
  for (let ti = 0; ti < rawTasks.length; ti++) {
    const t = rawTasks[ti];
    if (!isObj(t)) continue;
    tasks.push(await readViewerTask(traceExists, doc, datasetDir, t, ti, project, problems, cells));
  }
  if (doc.ok && isObj(doc.value)) problems.push(...crossCheckViewerSummary(doc, s, cells, tasks.length));

  const recorded: Record<string, unknown> = {};
  for (const k of ['k_max', 'summary', 'by_model', 'by_harness']) if (s[k] !== undefined) recorded[k] = s[k];
  return {
    id: `viewer-data:${summaryPath}`, kind: 'viewer-data', root: datasetDir, anchor: summaryPath,
    label: `${project.label} / ${datasetLabel}`, identity, state: 'complete', files, problems,
    unvalidated: [], skipped: [], tasks, recorded, ...(Object.keys(project.support).length ? { support: project.support } : {}),
  };
}

async function readViewerTask(
  traceExists: (abs: string) => Promise<boolean>, doc: JsonDocument, datasetDir: string, t: Obj, ti: number,
  project: ViewerProjectInfo, problems: Problem[], cells: CellRewards[],
): Promise<Task> {
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
      const jsonPath = ['tasks', ti, 'cells', cellKey, 'attempts', ai];
      const evidence: Evidence[] = [];
      const missing: string[] = [];
      const trace = str(a.trace);
      if (trace) {
        const abs = path.posix.resolve(datasetDir, trace);
        if (!isInside(datasetDir, abs)) {
          evidence.push({ kind: 'trace', label: path.posix.basename(abs), path: abs, isDir: false, present: false, outside: true });
          problems.push(problemAt(doc, [...jsonPath, 'trace'], 'warning', 'outside-run',
            outsideMessage(`the trace of ${id} ${cellKey} attempt ${attemptNo}`, trace, datasetDir)));
        } else {
          const present = await traceExists(abs);
          evidence.push({ kind: 'trace', label: path.posix.basename(abs), path: abs, isDir: false, present,
            ...(present ? {} : { namedBy: 'summary.json names it' }) });
          if (!present) {
            missing.push(abs);
            problems.push(problemAt(doc, [...jsonPath, 'trace'], 'warning', 'missing-trace',
              `${trace} (trace of ${id} ${cellKey} attempt ${attemptNo}) is not on disk`));
          }
        }
      }
      const adetails: Record<string, string | number | boolean | null> = { model, harness };
      if (tier) adetails.tier = tier.caveats.length ? `${tier.tier}: ${tier.caveats.join('; ')}` : tier.tier;
      const outcome = reward === null ? 'infra-error' : isPass(reward) ? 'passed' : 'failed';
      attempts.push({
        id: `${id}#${cellKey}#${attemptNo}`, index: attemptNo - 1, label: `#${attemptNo}`, outcome, reward,
        ...(reward === null ? { failure: { reason: 'the verifier never ran' } } : {}),
        durationSec: num(a.elapsed_sec), nTurns: num(a.n_turns), cell: cellKey, evidence, missing, details: adetails,
        ...(str(a.reward_method) ? { rewardMethod: str(a.reward_method) } : {}),
      });
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
