// The committed `examples/` folder (what the demo opens and the UI tests use):
//   examples/nemo-gym/tb-mini/      a NeMo Gym run with every case, and its rollouts_run_summary.json (the project's writer)
//   examples/nemo-gym/tb-smoke/     a smaller NeMo Gym run with NO run summary, so "Write Run Summary" has work to do
//   examples/harbor/jobs/<job>/     a Harbor job with a trial of every case
//   examples/viewer-data/projects/  a viewer data dir (docs/formats.md#viewer-data)
//   examples/compare/jobs/<job>/    Harbor jobs that differ, to compare (compareJobs.ts)
// Deterministic: the same bytes every time (the run summary is whatever the project's writer makes of them). The
// generated folders are replaced; examples/README.md is not touched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { writeRunSummary } from '../../src/core/summary';
import { generateNemoRun, nemoEveryCase, NEMO_T0, type NemoRunSpec } from './nemoGym';
import { generateHarborJob, harborEveryCase } from './harborJob';
import { generateViewerData, viewerEveryCase } from './viewerData';
import { compareBaseline, compareCandidate, compareOneTrialJobs } from './compareJobs';

/** The second, smaller NeMo Gym run: two tasks, a failure row, a masked row, a skipped task. */
export function nemoSmoke(): NemoRunSpec {
  return {
    stem: 'smoke',
    taskset: 'tb-smoke',
    target: 'harbor:tb-smoke@0.3',
    originalRoot: '/home/dev/gym/results/harbor/tb-smoke',
    tasks: [
      { id: 'hello-world', turns: 1, repeats: [{ outcome: 'scored', reward: 1.0, ctrf: true }, { outcome: 'scored', reward: 0.0 }] },
      { id: 'fix-permissions', repeats: [
        { outcome: 'failed', failureClass: 'environment_server_failed', failureStage: 'seed', failureReason: 'sandbox did not start: image pull timed out' },
        { outcome: 'masked', failureKind: 'provider_unavailable', verifierFolder: 'none', health: 'unobserved',
          failureReason: 'ProviderError: sandbox lost during upload of tests/' },
      ] },
    ],
    skipped: { 'no-tests': 'no-tests: tests/test.sh is missing' },
    health: true,
    aggregateMetrics: 'fresh',
  };
}

function replaceDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export async function generateExamples(outDir: string): Promise<string[]> {
  const out = path.resolve(outDir);
  const written: string[] = [];
  const nemoDir = path.join(out, 'nemo-gym');
  replaceDir(nemoDir);
  const spec = { ...nemoEveryCase(), originalRoot: '/home/dev/gym/results/harbor/tb-mini' };
  const main = await generateNemoRun(path.join(nemoDir, 'tb-mini'), spec);
  written.push(path.dirname(main.rolloutsPath));
  // The main run's summary, as `gym eval run` would leave it (written after the health reports: T0+6).
  const summary = await writeRunSummary(new NodeFs(), main.rolloutsPath, { skipped: main.skipped, identity: main.identity });
  if (summary.error) throw new Error(summary.error);
  fs.utimesSync(summary.path, NEMO_T0 + 6, NEMO_T0 + 6);
  const smoke = await generateNemoRun(path.join(nemoDir, 'tb-smoke'), nemoSmoke());
  written.push(path.dirname(smoke.rolloutsPath));

  const harborDir = path.join(out, 'harbor');
  replaceDir(harborDir);
  const job = await generateHarborJob(path.join(harborDir, 'jobs'), harborEveryCase());
  written.push(job.jobDir);

  const viewerDir = path.join(out, 'viewer-data');
  replaceDir(viewerDir);
  const viewer = await generateViewerData(viewerDir, viewerEveryCase());
  written.push(viewer.projectDir);

  const compareDir = path.join(out, 'compare');
  replaceDir(compareDir);
  for (const spec of [compareBaseline(), compareCandidate(), ...compareOneTrialJobs()]) {
    written.push((await generateHarborJob(path.join(compareDir, 'jobs'), spec)).jobDir);
  }
  return written;
}
