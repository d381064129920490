// What a Harbor trial reader needs from disk, gathered for many trials at once (core/fs/gather.ts: one call lists
// and reads for a whole batch of trials, on a worker thread where the backend can):
//   1. the trial folder, its result.json, its agent/ and verifier/ folders and artifacts/manifest.json;
//   2. what those answers call for: config.json when the result does not carry the trial's config, ctrf.json of a
//      trial that did not pass (its failed tests), the artifacts/ folder when its manifest was not a file there, the
//      reward files the provenance rules look at (provenance.ts), the steps/ folder of a multi-step trial;
//   3. each step's agent/, verifier/, artifacts/ folders, ctrf.json and manifest.json; 4. their reward files.
// Paths inside a trial are kept relative to its folder ('verifier/ctrf.json').
import type { EntryType, FileRead, FileStat, FsPort } from '../../fs/port';
import { gather, type ReadRequest } from '../../fs/gather';
import { joinPath } from './paths';

export type Listing = Map<string, EntryType>;

export interface TrialFiles {
  name: string;
  /** The trial folder (absolute). */
  dir: string;
  /** Folders by path relative to the trial ('' for the trial itself); an empty map when no folder is there. */
  dirs: Map<string, Listing>;
  /** Files read, by path relative to the trial. */
  files: Map<string, FileRead>;
  /** Files stat'ed (their times), by path relative to the trial. */
  stats: Map<string, FileStat | undefined>;
}

/** What a reader reads of one file at most (a result.json of thousands of steps stays well below). */
export const MAX_JSON_BYTES = 16 << 20;

/** What the provenance rules read of a reward file at most (provenance.ts). */
const MAX_REWARD_BYTES = 1 << 20;

function maxBytesOf(rel: string): number {
  return /(^|\/)reward\.(json|txt)$/.test(rel) ? MAX_REWARD_BYTES : MAX_JSON_BYTES;
}

const EMPTY: Listing = new Map();

/** A folder of the trial ('' for the trial folder itself); empty when it was not listed or is not there. */
export function listingOf(t: TrialFiles, rel: string): Listing {
  return t.dirs.get(rel) ?? EMPTY;
}

export interface TrialRequest {
  trial: TrialFiles;
  lists: string[];
  reads: string[];
  stats?: string[];
}

/** Lists and reads what each request asks, for all of them in one gather, and files the answers in each trial. */
export async function gatherFor(fs: FsPort, requests: readonly TrialRequest[]): Promise<void> {
  const lists: string[] = [];
  const reads: ReadRequest[] = [];
  const stats: string[] = [];
  for (const r of requests) {
    // The trial folder itself: its path as made (joinPath's, normal), not checked again.
    for (const rel of r.lists) lists.push(rel ? joinPath(r.trial.dir, rel) : r.trial.dir);
    for (const rel of r.reads) reads.push({ path: joinPath(r.trial.dir, rel), maxBytes: maxBytesOf(rel) });
    for (const rel of r.stats ?? []) stats.push(joinPath(r.trial.dir, rel));
  }
  if (lists.length === 0 && reads.length === 0 && stats.length === 0) return;
  const got = await gather(fs, lists, reads, stats);
  let l = 0;
  let f = 0;
  let st = 0;
  for (const r of requests) {
    for (const rel of r.lists) {
      const entries = got.lists[l++];
      r.trial.dirs.set(rel, entries ? new Map(entries) : EMPTY);
    }
    for (const rel of r.reads) r.trial.files.set(rel, got.reads[f++]);
    for (const rel of r.stats ?? []) r.trial.stats.set(rel, got.stats[st++]);
  }
}

const MANIFEST = 'artifacts/manifest.json';

/**
 * What the reader uses of an artifacts/ folder is whether it holds anything and whether manifest.json is a file in
 * it (evidence.ts artifactsEvidence): a manifest read as a file answers both, so that folder is not listed.
 */
const HOLDS_MANIFEST: Listing = new Map([['manifest.json', 'file']]);

/** Whether a read opened a regular file (its text, or its size when over the cap). */
function readAFile(r: FileRead | undefined): boolean {
  return r !== undefined && (r.text !== undefined || r.tooBig !== undefined);
}

/**
 * Stage 1 for trial folders `names` of the job: each folder, its result.json, agent/ and verifier/, and
 * artifacts/manifest.json (artifacts/ itself is listed in stage 2 only when that manifest is not a file there).
 */
export async function gatherTrialFolders(fs: FsPort, jobDir: string, names: readonly string[]): Promise<TrialFiles[]> {
  const trials: TrialFiles[] = names.map((name) => ({
    name, dir: joinPath(jobDir, name), dirs: new Map(), files: new Map(), stats: new Map(),
  }));
  await gatherFor(fs, trials.map((trial) => ({
    trial, lists: ['', 'agent', 'verifier'], reads: ['result.json', MANIFEST],
  })));
  // result.json and the manifest are read blindly (saves waiting for the listings): result.json is kept only when
  // the listing has it as a file, the manifest only when the listing has an artifacts/ folder.
  for (const t of trials) {
    const entries = listingOf(t, '');
    if (entries.get('result.json') !== 'file') t.files.delete('result.json');
    if (entries.get('artifacts') !== 'dir') t.files.delete(MANIFEST);
    else if (readAFile(t.files.get(MANIFEST))) t.dirs.set('artifacts', HOLDS_MANIFEST);
  }
  return trials;
}

/**
 * Whether the folder is a trial: config.json or result.json is there (harbor view's rule: the path exists, whatever
 * it is; one that is not a regular file is the trial's not-a-file problem, not a reason to leave the trial out).
 */
export function isTrialFolder(t: TrialFiles): boolean {
  const entries = listingOf(t, '');
  return entries.has('config.json') || entries.has('result.json');
}

/** What stage 2 asks of one trial, from what stage 1 found and what its result said. */
export function followUps(
  t: TrialFiles, o: { needConfig: boolean; readCtrf: boolean; stepNames: readonly string[]; verifierStartedAt: string | null; recordedRewards?: boolean },
): TrialRequest {
  const entries = listingOf(t, '');
  const lists: string[] = [];
  const reads: string[] = [];
  const stats: string[] = [];
  if (o.needConfig && entries.get('config.json') === 'file') reads.push('config.json');
  if (o.readCtrf && listingOf(t, 'verifier').get('ctrf.json') === 'file') reads.push('verifier/ctrf.json');
  // artifacts/ not known from its manifest (stage 1): listed now; what was read of the manifest is kept.
  if (entries.get('artifacts') === 'dir' && !t.dirs.has('artifacts')) lists.push('artifacts');
  rewardFileRequests(t, 'verifier', o.verifierStartedAt, reads, stats, o.recordedRewards);
  if (o.stepNames.length || entries.get('steps') === 'dir') lists.push('steps');
  return { trial: t, lists, reads, stats };
}

/**
 * The reward files of a verifier folder the provenance rules need (provenance.ts): both read (and their times) when
 * reward.json and reward.txt are both there, their times only when the verifier's start is known.
 */
export function rewardFileRequests(t: TrialFiles, verifier: string, verifierStartedAt: string | null, reads: string[], stats: string[],
  recorded = false): void {
  const entries = listingOf(t, verifier);
  const has = (n: string) => entries.get(n) === 'file';
  const both = has('reward.json') && has('reward.txt');
  // With rewards recorded in result.json, the file the verifier reads (reward.json, else reward.txt) is read to compare.
  const read = both ? ['reward.json', 'reward.txt'] : recorded ? [has('reward.json') ? 'reward.json' : 'reward.txt'] : [];
  for (const name of ['reward.json', 'reward.txt']) {
    if (!has(name)) continue;
    if (read.includes(name)) reads.push(`${verifier}/${name}`);
    if (both || verifierStartedAt) stats.push(`${verifier}/${name}`);
  }
}

/** The steps of a multi-step trial: those its result lists, then the other folders under steps/. */
export function stepNamesOf(t: TrialFiles, recorded: readonly string[]): string[] {
  const names = [...recorded];
  for (const [n, type] of listingOf(t, 'steps')) if (type === 'dir' && !names.includes(n)) names.push(n);
  return names;
}

/** Stage 3 of a multi-step trial: each step's folders and the files the evidence reads. */
export function stepRequests(t: TrialFiles, stepNames: readonly string[]): TrialRequest {
  const lists: string[] = [];
  const reads: string[] = [];
  for (const s of stepNames) {
    const dir = `steps/${s}`;
    lists.push(`${dir}/agent`, `${dir}/verifier`, `${dir}/artifacts`);
    reads.push(`${dir}/verifier/ctrf.json`, `${dir}/artifacts/manifest.json`);
  }
  return { trial: t, lists, reads };
}
