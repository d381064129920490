// A viewer data training run (docs/formats.md#viewer-data): projects/<p>/runs/<r>/run.json and train/metrics.jsonl, streamed.
// No tasks: the run carries `training` (step count and the last step's numbers), its files, and problems — bad
// lines with their line numbers, and steps whose generations all scored the same (reward_std 0: zero advantage),
// from the pass over metrics.jsonl in trainingMetrics.ts (which reads a grown file on from where it ended).
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import type { Problem, Run, RunFile } from '../model';
import { TrainingRunSchema } from '../schemas/viewer';
import { issueProblems, readJsonDocument } from './jsonFile';
import { readTrainingMetrics } from './trainingMetrics';
import { readViewerProject } from './viewerProject';

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
  const mst = await fs.stat(metrics);
  files.push({ key: 'metrics', label: 'Training metrics', path: mst ? metrics : null, present: mst !== undefined });
  const m = mst ? await readTrainingMetrics(fs, metrics) : undefined;
  if (m) problems.push(...m.problems);
  const steps = m?.steps ?? 0;
  const last = m?.last;
  const running = m?.running ?? false;
  const label = typeof v.label === 'string' ? v.label : typeof v.run_id === 'string' ? v.run_id : runId;
  return {
    id: `viewer-data:${runJson}`, kind: 'viewer-data', root: runDir, anchor: runJson,
    label: `${project.label} / ${label}`, identity, state: running ? 'running' : 'complete',
    startedAt: typeof v.started_at === 'string' ? v.started_at : null,
    finishedAt: typeof v.finished_at === 'string' ? v.finished_at : null,
    files, problems, unvalidated: [], skipped: [], tasks: [], training: { steps, ...(last ? { last } : {}) },
  };
}

