// Reads the trials of a Harbor job in batches: each batch's folders, result.json files and evidence folders are
// gathered in one call (trialFiles.ts), the next batch's while this one is parsed, so the file system work (on a
// worker thread where the backend can) overlaps the parsing on the caller's thread.
import type { FsPort } from '../../fs/port';
import { TimeSlice } from '../../turn';
import { trialFromFiles, type TrialRead } from './trial';
import { needsConfigFile, readConfig, readResult, type ResultRead } from './trialResult';
import {
  followUps, gatherFor, gatherTrialFolders, isTrialFolder, rewardFileRequests, stepNamesOf, stepRequests,
  type TrialFiles, type TrialRequest,
} from './trialFiles';

/** Stage 4 of a multi-step trial: the reward files of each step's verifier the provenance rules look at. */
function stepRewardRequests(t: TrialFiles, stepNames: readonly string[], r: ResultRead): TrialRequest {
  const reads: string[] = [];
  const stats: string[] = [];
  for (const s of stepNames) {
    const started = r.result?.step_results?.find((x) => x.step_name === s)?.verifier?.started_at ?? null;
    rewardFileRequests(t, `steps/${s}/verifier`, started, reads, stats);
  }
  return { trial: t, lists: [], reads, stats };
}

/** Trial folders per gather. */
export const TRIAL_BATCH = 256;

export interface TrialProgress {
  /** Folders looked at so far, and in all. */
  done: number;
  total: number;
  /** The trials read so far, in folder order (those of finished batches). */
  trials: readonly TrialRead[];
}

/** Stages 2 and 3 for one batch, then each trial's attempt. Folders that are not trials are left out. */
async function readBatch(fs: FsPort, folders: TrialFiles[], jobFinished: boolean, slice: TimeSlice): Promise<TrialRead[]> {
  const trials = folders.filter(isTrialFolder);
  const results: ResultRead[] = [];
  for (const t of trials) {
    results.push(readResult(t, jobFinished));
    if (slice.due) await slice.yield();
  }
  await gatherFor(fs, trials.map((t, i) => followUps(t, {
    needConfig: needsConfigFile(results[i]),
    // A passed trial's ctrf.json lists no failure worth reading (as for run summaries): only the others are read.
    readCtrf: results[i].attempt.outcome !== 'passed',
    stepNames: (results[i].result?.step_results ?? []).map((s) => s.step_name),
    verifierStartedAt: results[i].result?.verifier?.started_at ?? null,
  })));
  const steps = trials.map((t, i) => stepNamesOf(t, (results[i].result?.step_results ?? []).map((s) => s.step_name)));
  const multi = trials.flatMap((t, i) => (steps[i].length ? [{ t, i }] : []));
  await gatherFor(fs, multi.map(({ t, i }) => stepRequests(t, steps[i])));
  await gatherFor(fs, multi.map(({ t, i }) => stepRewardRequests(t, steps[i], results[i])));
  const out: TrialRead[] = [];
  for (let i = 0; i < trials.length; i++) {
    out.push(trialFromFiles(trials[i], results[i], readConfig(trials[i]), steps[i], jobFinished));
    if (slice.due) await slice.yield();
  }
  return out;
}

/**
 * Every trial among the job's sub-folders `names` (sorted), in that order. The next batch is gathered while one is
 * parsed; the caller's thread yields by time slices; `onProgress` hears after each batch.
 */
export async function readTrials(
  fs: FsPort, jobDir: string, names: readonly string[], jobFinished: boolean,
  onProgress?: (p: TrialProgress) => void,
): Promise<TrialRead[]> {
  const batches: string[][] = [];
  for (let i = 0; i < names.length; i += TRIAL_BATCH) batches.push(names.slice(i, i + TRIAL_BATCH));
  const out: TrialRead[] = [];
  const slice = new TimeSlice();
  let pending = batches.length ? gatherTrialFolders(fs, jobDir, batches[0]) : undefined;
  let done = 0;
  for (let b = 0; b < batches.length; b++) {
    const folders = await pending!;
    pending = b + 1 < batches.length ? gatherTrialFolders(fs, jobDir, batches[b + 1]) : undefined;
    for (const t of await readBatch(fs, folders, jobFinished, slice)) out.push(t);
    done += batches[b].length;
    onProgress?.({ done, total: names.length, trials: out });
  }
  return out;
}
