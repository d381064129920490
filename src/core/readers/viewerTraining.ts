// A viewer data training run (docs/formats.md#viewer-data): projects/<p>/runs/<r>/run.json and train/metrics.jsonl, streamed.
// No tasks: the run carries `training` (step count and the last step's numbers), its files, and problems — bad
// lines with their line numbers, and steps whose generations all scored the same (reward_std 0: zero advantage).
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import { readJsonl } from '../jsonl';
import type { Problem, Run, RunFile } from '../model';
import { TrainingMetricsRowSchema, TrainingRunSchema } from '../schemas/viewer';
import { issueProblems, readJsonDocument } from './jsonFile';
import { readViewerProject } from './viewerProject';

/** At most this many "teaches nothing" notes per run; the rest are counted in one more note. */
const MAX_FLAT_NOTES = 3;

export async function readViewerTrainingRun(fs: FsPort, runDir: string): Promise<Run> {
  const runId = path.posix.basename(runDir);
  const project = await readViewerProject(fs, path.posix.dirname(path.posix.dirname(runDir)));
  const problems: Problem[] = [...project.problems];
  const runJson = `${runDir}/run.json`;
  const doc = await readJsonDocument(fs, runJson, 'run.json');
  problems.push(...doc.problems);
  const v = doc.value !== null && typeof doc.value === 'object' && !Array.isArray(doc.value) ? (doc.value as Record<string, unknown>) : {};
  if (doc.ok) {
    const parsed = TrainingRunSchema.safeParse(doc.value);
    if (!parsed.success) problems.push(...issueProblems(doc, parsed.error.issues, 'run.json'));
  }
  const identity: Record<string, string | null> = { project: project.id, project_label: project.label, run: runId };
  for (const [k, x] of Object.entries(v)) {
    if (Object.prototype.hasOwnProperty.call(identity, k) || k === '__proto__' || Object.keys(identity).length >= 16) continue;
    if ((k === 'run_id' && x === runId) || (k === 'project_id' && x === project.id) || k === 'label') continue;
    if (typeof x === 'string' && x.length <= 200) identity[k] = x;
    else if (typeof x === 'number' || typeof x === 'boolean') identity[k] = String(x);
  }

  const metrics = `${runDir}/train/metrics.jsonl`;
  const files: RunFile[] = [
    project.file,
    { key: 'run', label: 'Run', path: runJson, present: !doc.problems.some((p) => p.code === 'missing-file') },
  ];
  let steps = 0;
  let last: Record<string, number | null> | undefined;
  let flat = 0;
  let running = false;
  const mst = await fs.stat(metrics);
  files.push({ key: 'metrics', label: 'Training metrics', path: mst ? metrics : null, present: mst !== undefined });
  if (mst) {
    let schemaIssues = 0;
    const res = await readJsonl(fs, metrics, (row, line) => {
      const parsed = TrainingMetricsRowSchema.safeParse(row);
      if (!parsed.success) {
        if (++schemaIssues <= 20) {
          const issue = parsed.error.issues[0];
          problems.push({ file: metrics, line, severity: 'warning', code: 'schema',
            message: `line ${line}: ${issue.path.map(String).join('.') || '(row)'}: ${issue.message}` });
        }
        if (typeof row.step !== 'number') return;
      }
      steps++;
      last = {};
      for (const [k, x] of Object.entries(row)) {
        if (typeof x === 'number' || x === null) last[k] = x;
      }
      if (row.reward_std === 0) {
        flat++;
        if (flat <= MAX_FLAT_NOTES) {
          problems.push({ file: metrics, line, severity: 'info', code: 'zero-advantage',
            message: `step ${String(row.step)} teaches nothing (zero advantage): every generation scored the same (reward_std 0)` });
        }
      }
    });
    if (schemaIssues > 20) problems.push({ file: metrics, severity: 'warning', code: 'more-problems', message: `${schemaIssues - 20} more rows do not match the metrics schema` });
    if (flat > MAX_FLAT_NOTES) {
      problems.push({ file: metrics, severity: 'info', code: 'zero-advantage', message: `${flat - MAX_FLAT_NOTES} more steps teach nothing (reward_std 0)` });
    }
    problems.push(...res.problems);
    running = res.incompleteTail;
  }
  const label = typeof v.label === 'string' ? v.label : typeof v.run_id === 'string' ? v.run_id : runId;
  return {
    id: `viewer-data:${runJson}`, kind: 'viewer-data', root: runDir, anchor: runJson,
    label: `${project.label} / ${label}`, identity, state: running ? 'running' : 'complete',
    startedAt: typeof v.started_at === 'string' ? v.started_at : null,
    finishedAt: typeof v.finished_at === 'string' ? v.finished_at : null,
    files, problems, unvalidated: [], skipped: [], tasks: [], training: { steps, ...(last ? { last } : {}) },
  };
}

