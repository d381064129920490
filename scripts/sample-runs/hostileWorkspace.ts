// A workspace folder written by someone else, for the untrusted-runs tests (unit and in the real workbench): a
// Harbor job whose evidence links out of it (test-stdout.txt -> a file outside), a `latest` link to the job, a link to
// a folder outside, and a NeMo Gym run (rollouts and sidecars) whose summary the test writes and then points outside.
// See docs/untrusted-runs.md for what the extension must do with each.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateHarborJob, harborEveryCase } from './harborJob';
import { generateNemoRun, nemoEveryCase } from './nemoGym';
import { addLink, makeFifo } from './hostile';

/** What a test must never see opened or quoted. */
export const SECRET_TEXT = 'SECRET: this file is outside the workspace';

export interface HostileWorkspace {
  dir: string;
  /** A folder outside the workspace holding secret.txt (and a Harbor job of its own). */
  outside: string;
  secret: string;
  jobDir: string;
  /** The trial whose verifier/test-stdout.txt is a link to `secret`. */
  trial: string;
  linkedStdout: string;
  /** The NeMo Gym run's rollouts file (no summary yet). */
  rollouts: string;
  /** A run summary that is a FIFO nobody writes to (reading it blindly hangs). */
  fifoSummary: string;
}

/** Writes the hostile workspace into `dir` (created) and its outside into `outside` (created). */
export async function generateHostileWorkspace(dir: string, outside: string): Promise<HostileWorkspace> {
  fs.mkdirSync(outside, { recursive: true });
  const secret = path.join(outside, 'secret.txt');
  fs.writeFileSync(secret, `${SECRET_TEXT}\n`);
  await generateHarborJob(path.join(outside, 'jobs'), harborEveryCase());
  const { jobDir, trials } = await generateHarborJob(path.join(dir, 'jobs'), harborEveryCase());
  const trial = trials.map((t) => t.name).find((t) => fs.existsSync(path.join(jobDir, t, 'verifier', 'test-stdout.txt')));
  if (!trial) throw new Error('the job has no trial with a test-stdout.txt');
  const linkedStdout = path.join(jobDir, trial, 'verifier', 'test-stdout.txt');
  fs.rmSync(linkedStdout);
  fs.symlinkSync(secret, linkedStdout);
  addLink(path.join(dir, 'jobs'), 'latest', path.basename(jobDir));
  addLink(dir, 'elsewhere', outside);
  const nemo = await generateNemoRun(path.join(dir, 'nemo'), nemoEveryCase());
  const fifoSummary = path.join(dir, 'fifo', 'stuck_run_summary.json');
  makeFifo(fifoSummary);
  return { dir, outside, secret, jobDir, trial, linkedStdout, rollouts: nemo.rolloutsPath, fifoSummary };
}
