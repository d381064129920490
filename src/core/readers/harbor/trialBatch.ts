// Reads the trials of a Harbor job in batches: each batch's folders, result.json files and evidence folders are
// gathered in one call (trialFiles.ts), the next batch's while this one is parsed, and a batch's follow-up files
// while the batch before it is built, so the file system work (on a worker thread where the backend can) overlaps
// the parsing on the caller's thread, which does not wait for it.
import type { FsPort } from '../../fs/port';
import { TimeSlice } from '../../turn';
import { trialFromFiles, type TrialRead } from './trial';
import { needsConfigFile, readConfig, readResult, type ResultRead } from './trialResult';
import {
  followUps, gatherFor, gatherTrialFolders, isTrialFolder, rewardFileRequests, stepNamesOf, stepRequests,
  type TrialFiles, type TrialRequest,
} from './trialFiles';

/** result.json recorded rewards (then the verifier's reward file is read to compare: provenance.ts). */
function hasRewards(r: Readonly<Record<string, number>> | null | undefined): boolean {
  return !!r && Object.keys(r).length > 0;
}

/** Stage 4 of a multi-step trial: the reward files of each step's verifier the provenance rules look at. */
function stepRewardRequests(t: TrialFiles, stepNames: readonly string[], r: ResultRead): TrialRequest {
  const reads: string[] = [];
  const stats: string[] = [];
  for (const s of stepNames) {
    const sr = r.result?.step_results?.find((x) => x.step_name === s);
    rewardFileRequests(t, `steps/${s}/verifier`, sr?.verifier?.started_at ?? null, reads, stats, hasRewards(sr?.verifier_result?.rewards));
  }
  return { trial: t, lists: [], reads, stats };
}

/**
 * Trial folders per gather. Small enough that what a batch holds while it is read (its files, their parsed results)
 * dies young: with 256, harbor-10k's scavenges promoted 73-77 MB to the old generation (the model is ~33 MB) and its
 * peak RSS was ~210 MB; with 64, 31-35 MB and ~176 MB (32 promoted no less).
 */
export const TRIAL_BATCH = 64;

/**
 * Trial folders of the first gather: the batches after it double up to TRIAL_BATCH, so this thread has results to
 * parse after a small gather rather than waiting for a whole batch on the worker (harbor-10k: 150-450 ms idle there
 * at load 4-6, the worker sharing the cores with the lock's).
 */
export const FIRST_TRIAL_BATCH = 32;

/** Batches whose folders are asked of the worker before this thread gets to them. */
const GATHERED_AHEAD = 2;

export interface TrialProgress {
  /** Folders looked at so far, and in all. */
  done: number;
  total: number;
  /** The trials read so far, in folder order (those of finished batches). */
  trials: readonly TrialRead[];
}

/** One batch after stage 1: its trial folders, their results as read, and stages 2 to 4 under way (each trial's steps). */
interface BatchRead {
  trials: TrialFiles[];
  results: ResultRead[];
  steps: Promise<string[][]>;
  /** Folders of the batch (trials or not). */
  folders: number;
}

/** Stages 2, 3 and 4 for one batch whose results are read: each trial's step names. */
async function followUpsOf(fs: FsPort, trials: TrialFiles[], results: ResultRead[]): Promise<string[][]> {
  await gatherFor(fs, trials.map((t, i) => followUps(t, {
    needConfig: needsConfigFile(results[i]),
    // A passed trial's ctrf.json lists no failure worth reading (as for run summaries): only the others are read.
    readCtrf: results[i].attempt.outcome !== 'passed',
    stepNames: (results[i].result?.step_results ?? []).map((s) => s.step_name),
    verifierStartedAt: results[i].result?.verifier?.started_at ?? null,
    recordedRewards: hasRewards(results[i].result?.verifier_result?.rewards),
  })));
  const steps = trials.map((t, i) => stepNamesOf(t, (results[i].result?.step_results ?? []).map((s) => s.step_name)));
  const multi = trials.flatMap((t, i) => (steps[i].length ? [{ t, i }] : []));
  await gatherFor(fs, multi.map(({ t, i }) => stepRequests(t, steps[i])));
  await gatherFor(fs, multi.map(({ t, i }) => stepRewardRequests(t, steps[i], results[i])));
  return steps;
}

/** Each trial's result (stage 1 read it), then stages 2 to 4 asked for. Folders that are not trials are left out. */
async function readBatch(fs: FsPort, folders: TrialFiles[], jobFinished: boolean, slice: TimeSlice): Promise<BatchRead> {
  const trials = folders.filter(isTrialFolder);
  const results: ResultRead[] = [];
  for (let i = 0; i < trials.length; i++) {
    results.push(readResult(trials[i], jobFinished));
    if ((i & 3) === 3 && slice.due) await slice.yield(); // the clock read every 4 trials (~0.1-0.2 ms each)
  }
  const steps = followUpsOf(fs, trials, results);
  steps.catch(() => undefined); // awaited when the batch is built, after the next batch's results: not unhandled meanwhile
  return { trials, results, steps, folders: folders.length };
}

/** Each trial's attempt, once stages 2 to 4 are in. */
async function buildBatch(b: BatchRead, jobFinished: boolean, slice: TimeSlice, out: TrialRead[]): Promise<void> {
  const steps = await b.steps;
  for (let i = 0; i < b.trials.length; i++) {
    out.push(trialFromFiles(b.trials[i], b.results[i], readConfig(b.trials[i]), steps[i], jobFinished));
    if ((i & 3) === 3 && slice.due) await slice.yield();
  }
}

/**
 * Every trial among the job's sub-folders `names` (sorted), in that order. The folder lister's worker is kept one
 * step ahead of this thread: while a batch's results are parsed here, the next batch's folders are gathered there;
 * while a batch's attempts are built here, the next batch's follow-up files are read there (so this thread does not
 * wait for them). The caller's thread yields by time slices; `onProgress` hears after each batch is built.
 */
export async function readTrials(
  fs: FsPort, jobDir: string, names: readonly string[], jobFinished: boolean,
  onProgress?: (p: TrialProgress) => void,
): Promise<TrialRead[]> {
  const batches: string[][] = [];
  for (let i = 0, n = FIRST_TRIAL_BATCH; i < names.length; i += n, n = Math.min(2 * n, TRIAL_BATCH)) batches.push(names.slice(i, i + n));
  const out: TrialRead[] = [];
  const slice = new TimeSlice();
  // Stage 1 of the next GATHERED_AHEAD batches is asked before this thread needs it.
  const gathered: (Promise<TrialFiles[]> | undefined)[] = [];
  const ask = (k: number) => {
    if (k >= batches.length) return;
    gathered[k] = gatherTrialFolders(fs, jobDir, batches[k]);
    gathered[k]!.catch(() => undefined); // awaited in its turn: not unhandled meanwhile
  };
  for (let k = 0; k < GATHERED_AHEAD; k++) ask(k);
  let done = 0;
  let prev: BatchRead | undefined;
  const build = async (b: BatchRead) => {
    await buildBatch(b, jobFinished, slice, out);
    done += b.folders;
    onProgress?.({ done, total: names.length, trials: out });
  };
  for (let b = 0; b < batches.length; b++) {
    const folders = await gathered[b]!;
    gathered[b] = undefined;
    ask(b + GATHERED_AHEAD);
    const read = await readBatch(fs, folders, jobFinished, slice);
    if (prev) await build(prev);
    prev = read;
  }
  if (prev) await build(prev);
  return out;
}
