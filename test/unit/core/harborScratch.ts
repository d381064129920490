// Hand-built Harbor jobs for the Harbor reader's unit tests: a temp folder per test file (removed after its tests),
// files written with their folders, a job folder with its result.json, and a read job's attempts by trial name.
import { after } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Attempt, Run } from '../../../src/core/model';

export interface HarborScratch {
  /** The test file's temp folder (POSIX path). */
  root: string;
  /** A number not used before in this folder (for fresh sub-folder names). */
  next(): number;
  write(file: string, content: string | object): void;
  /** A fresh job folder with a job-level result.json, finished or not. */
  job(finished?: boolean): string;
}

export function harborScratch(prefix: string): HarborScratch {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix)).split(path.sep).join('/');
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  let counter = 0;
  const next = () => ++counter;
  const write = (file: string, content: string | object): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  const job = (finished = true): string => {
    const dir = `${root}/job-${next()}`;
    write(`${dir}/result.json`, { id: 'j', started_at: '2026-08-21T10:00:00Z', finished_at: finished ? '2026-08-21T11:00:00Z' : null, n_total_trials: 0 });
    return dir;
  };
  return { root, next, write, job };
}

export const attemptsOf = (run: Run): Attempt[] => run.tasks.flatMap((t) => t.attempts);
export const byTrial = (run: Run): Record<string, Attempt> => Object.fromEntries(attemptsOf(run).map((a) => [String(a.details?.trial), a]));
