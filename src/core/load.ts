// Reads discovered run candidates into the model. Never throws: a reader that throws becomes a run that still
// appears, with one Problem naming the file and the error.
import * as path from 'node:path';
import type { FsPort } from './fs/port';
import type { Run } from './model';
import { discoverRuns, type DiscoverOptions, type RunCandidate } from './discovery';
import { readHarborJob } from './readers/harborJob';
import { readNemoRollouts, readRunSummary } from './readers/runSummary';
import { readViewerDataset, readViewerTrainingRun } from './readers/viewerData';

function readerFor(fs: FsPort, c: RunCandidate): Promise<Run> {
  switch (c.variant) {
    case 'summary': return readRunSummary(fs, c.anchor);
    case 'rollouts': return readNemoRollouts(fs, c.anchor);
    case 'job': return readHarborJob(fs, c.root);
    case 'dataset': return readViewerDataset(fs, c.root);
    case 'training': return readViewerTrainingRun(fs, c.root);
  }
}

/** The run of one candidate; a reader's exception becomes an empty run with a 'reader-failed' Problem. */
export async function readCandidate(fs: FsPort, c: RunCandidate): Promise<Run> {
  try {
    return await readerFor(fs, c);
  } catch (e) {
    const err = e as Error;
    return {
      id: `${c.kind}:${c.anchor}`, kind: c.kind, root: c.root, anchor: c.anchor,
      label: path.posix.basename(c.anchor), identity: {}, state: 'incomplete', files: [],
      problems: [{ file: c.anchor, severity: 'error', code: 'reader-failed',
        message: `could not read this run: ${err?.message ?? String(e)}` }],
      unvalidated: [], skipped: [], tasks: [],
    };
  }
}

export interface LoadOptions extends DiscoverOptions {
  /** Candidates read at once (default 4). */
  readConcurrency?: number;
}

/** Every run below every root, each read once, sorted by anchor (then kind) so the order is stable. */
export async function loadRuns(fs: FsPort, roots: readonly string[], opts: LoadOptions = {}): Promise<Run[]> {
  const candidates: RunCandidate[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const c of await discoverRuns(fs, root, opts)) {
      const key = `${c.variant}:${c.anchor}`;
      if (!seen.has(key)) { seen.add(key); candidates.push(c); }
    }
  }
  const runs: Run[] = new Array(candidates.length);
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const i = next++;
      runs[i] = await readCandidate(fs, candidates[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.readConcurrency ?? 4) }, worker));
  return runs.sort((a, b) => (a.anchor < b.anchor ? -1 : a.anchor > b.anchor ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
