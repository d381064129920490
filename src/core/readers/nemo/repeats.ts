// The tasks and repeats of a run summary, each repeat's evidence checked on disk now. With a backend that lists and
// reads in batches (FsPort.listDirs / FsPort.gather: a worker thread on Node and for `file:` paths in VS Code), the
// verifier folders of a chunk of repeats are listed and the ctrf.json of each of its repeats that did not pass is read
// beforehand, in batches, instead of a readDir, a stat and a readFile per repeat.
import type { EntryType, FileRead, FsPort } from '../../fs/port';
import { gather } from '../../fs/gather';
import type { Attempt, FailureDetail, Outcome, Problem, Task } from '../../model';
import { classifyNemoRepeat } from '../../outcome';
import type { JsonDocument } from '../jsonFile';
import { repeatEvidence, resolveRel } from './repeatEvidence';
import { bool, isObj, num, str, type NormRepeat, type NormTask } from './summaryShape';
import { verdictKey, type Health } from './verdicts';
import { isInside } from '../../containment';
import { TimeSlice } from '../../turn';

/**
 * Repeats read per chunk (whole tasks): their folders listed and ctrf.json files read in one batch each. Small enough
 * that a chunk's parsed rows die young: with 2,048 they lived through several scavenges, were promoted and left as
 * garbage in the old generation (40,000 repeats: the main heap grew to ~190 MB committed, ~166 MB with 512).
 */
export const CHUNK_REPEATS = 512;
/** Repeats whose evidence is checked at once. */
const REPEAT_CONCURRENCY = 32;
/** Folders listed, or files read, per batch. */
const PREFETCH_BATCH = 2048;
/** What a reader reads of a ctrf.json at most. */
const MAX_CTRF_BYTES = 16 << 20;

type Listings = ReadonlyMap<string, [string, EntryType][] | undefined>;

function taskOf(t: NormTask, attempts: Attempt[]): Task {
  const details: Record<string, string | number | boolean | null> = {};
  const digest = attempts.find((a) => a.details?.digest)?.details?.digest;
  if (typeof digest === 'string') details.digest = digest;
  return { id: t.taskId, ...(t.index !== undefined ? { index: t.index } : {}), label: t.taskId, attempts, details };
}

interface RepeatResult {
  attempt: Attempt;
  problems: Problem[];
  /** Absolute paths this repeat names that are not on disk (for naming the attempt in missing_paths problems). */
  named: string[];
  who: string;
}

/** Every verifier folder these repeats name, listed in batches (FsPort.listDirs); undefined without it. */
async function prelist(fs: FsPort, root: string, jobs: readonly Job[], slice: TimeSlice): Promise<Map<string, [string, EntryType][] | undefined> | undefined> {
  if (!fs.listDirs) return undefined;
  const seen = new Set<string>();
  const dirs: string[] = [];
  for (let i = 0; i < jobs.length; i++) {
    const l = str(jobs[i].r.raw.verifier_logs);
    if (l) {
      const d = resolveRel(root, l);
      if (!seen.has(d) && isInside(root, d)) { seen.add(d); dirs.push(d); }
    }
    if ((i & 255) === 255 && slice.due) await slice.yield();
  }
  const out = new Map<string, [string, EntryType][] | undefined>();
  try {
    for (let i = 0; i < dirs.length; i += PREFETCH_BATCH) {
      const batch = dirs.slice(i, i + PREFETCH_BATCH);
      const lists = await fs.listDirs(batch);
      batch.forEach((d, k) => out.set(d, lists[k]));
    }
  } catch {
    return undefined; // each repeat lists its own folder
  }
  return out;
}

/**
 * The ctrf.json of every repeat that did not pass whose listed verifier folder holds one, read up front in batches
 * (FsPort.gather); undefined without it (each repeat then reads its own).
 */
async function preread(fs: FsPort, root: string, repeats: readonly Job[], listings: Listings | undefined, slice: TimeSlice): Promise<Map<string, FileRead> | undefined> {
  if (!fs.gather || !listings) return undefined;
  const paths: string[] = [];
  for (let i = 0; i < repeats.length; i++) {
    if ((i & 255) === 255 && slice.due) await slice.yield();
    const { r, outcome } = repeats[i];
    const logs = str(r.raw.verifier_logs);
    if (outcome === 'passed' || !logs) continue;
    const dir = resolveRel(root, logs);
    if (listings.get(dir)?.some(([n, t]) => n === 'ctrf.json' && t === 'file')) paths.push(`${dir}/ctrf.json`);
  }
  const out = new Map<string, FileRead>();
  for (let i = 0; i < paths.length; i += PREFETCH_BATCH) {
    const batch = paths.slice(i, i + PREFETCH_BATCH);
    const got = await gather(fs, [], batch.map((p) => ({ path: p, maxBytes: MAX_CTRF_BYTES })));
    batch.forEach((p, k) => out.set(p, got.reads[k]));
  }
  return out;
}

/** A repeat to read: its task, its entry, and its outcome from the row's fields. */
type Job = { t: NormTask; r: NormRepeat; outcome: Outcome; failure: FailureDetail; sourceOutcome: string };

/** The outcome of a repeat and why, from its row's fields. */
function classifyRepeat(raw: Record<string, unknown>): { outcome: Outcome; failure: FailureDetail; sourceOutcome: string } {
  const failure: FailureDetail = {};
  const fk = str(raw.failure_kind); if (fk) failure.kind = fk;
  const fr = str(raw.failure_reason); if (fr) failure.reason = fr;
  const fc = str(raw.failure_class); if (fc) failure.class = fc;
  const fs_ = str(raw.failure_stage); if (fs_) failure.stage = fs_;
  const ft = bool(raw.failure_terminal); if (ft !== null) failure.terminal = ft;
  const sourceOutcome = str(raw.outcome) ?? '';
  const outcome = classifyNemoRepeat({
    sourceOutcome, reward: num(raw.reward), failureKind: fk, failureClass: fc, failureStage: fs_,
    agentTimedOut: bool(raw.agent_timed_out),
  });
  return { outcome, failure, sourceOutcome };
}

/** Verifier mode, mask, input digest, turns and the first metadata's scalars of a repeat's row. */
function detailsOf(raw: Record<string, unknown>): Record<string, string | number | boolean | null> {
  const details: Record<string, string | number | boolean | null> = {};
  const mode = str(raw.verifier_mode); if (mode) details.verifier_mode = mode;
  const mask = bool(raw.mask_sample); if (mask !== null) details.mask_sample = mask;
  const input = isObj(raw.input) ? raw.input : undefined;
  if (input && isObj(input.digests)) {
    const d = str(input.digests._ng_digest) ?? Object.values(input.digests).map(str).find(Boolean) ?? null;
    if (d) details.digest = d;
  }
  const meta = input ? (Array.isArray(input.metadata) ? input.metadata : isObj(input.metadata) ? [input.metadata] : []) : [];
  if (meta.length > 1) details.turns = meta.length;
  const first = isObj(meta[0]) ? meta[0] : undefined;
  if (first) for (const [k, v] of Object.entries(first)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') details[k] = v;
  return details;
}

async function readRepeat(
  fs: FsPort, doc: JsonDocument, root: string, t: NormTask, r: NormRepeat, health: Map<string, Health>,
  c: { outcome: Outcome; failure: FailureDetail; sourceOutcome: string },
  prefetched: { listings?: Listings; ctrfs?: ReadonlyMap<string, FileRead> },
): Promise<RepeatResult> {
  const raw = r.raw;
  const who = `${t.taskId} #${r.repeat + 1}`;
  const { outcome, failure, sourceOutcome } = c;
  // A passed attempt's ctrf.json lists no failures worth reading; reading only the others keeps big runs fast.
  const ev = await repeatEvidence(fs, doc, root, raw, r.jsonPath, who, { readCtrf: outcome !== 'passed', ...prefetched });
  const named = [...ev.missing];
  for (const m of Array.isArray(raw.missing) ? raw.missing : []) {
    if (typeof m === 'string') named.push(resolveRel(root, m));
  }
  const details = detailsOf(raw);
  // A masked, failed or missing repeat was never measured: its reward is null, never the 0.0 a masked row carries.
  const reward = outcome === 'infra-error' || outcome === 'missing' ? null : num(raw.reward);
  if (reward === null && num(raw.reward) !== null) details.row_reward = num(raw.reward);
  const h = t.index !== undefined ? health.get(verdictKey(t.index, r.repeat)) : undefined;
  const attempt: Attempt = {
    id: `${t.taskId}#${r.repeat}`,
    index: r.repeat,
    label: `#${r.repeat + 1}`,
    outcome,
    reward,
    ...(sourceOutcome ? { sourceOutcome } : {}),
    ...(Object.keys(failure).length ? { failure } : {}),
    ...(ev.dir ? { dir: ev.dir } : {}),
    evidence: ev.evidence,
    missing: ev.missing,
    ...(h ? { health: h } : {}),
    ...(Object.keys(details).length ? { details } : {}),
  };
  return { attempt, problems: ev.problems, named, who };
}

/**
 * Every task's repeats read into attempts, many at once, a chunk of whole tasks (≥ CHUNK_REPEATS repeats) at a time:
 * a chunk's verifier folders are listed and its ctrf.json files read (the next chunk's while this one is built), its
 * attempts built, then its listings and parsed rows let go (`release`: the caller's parsed task, once its attempts are
 * built), so neither all the listings nor all the parsed tasks are held beside the model (40,000 repeats: ~32 MB and
 * ~50 MB). Results are assembled in document order, so problems and attempts keep a stable order. `whoByMissing`:
 * which attempt names each path that is not on disk. `known`: the verifier folders' listings when known without the
 * disk (a summary just written). Every pass over the repeats gives the event loop a turn once a slice has passed
 * (40,000 repeats: the passes that plan the reads held it for seconds in one piece on a loaded machine).
 */
export async function readTasks(
  fs: FsPort, doc: JsonDocument, root: string, normTasksList: Iterable<NormTask> | AsyncIterable<NormTask>,
  healthAsked: Map<string, Health> | Promise<Map<string, Health>>, problems: Problem[],
  known?: Listings, release?: (t: NormTask) => void,
): Promise<{ tasks: Task[]; whoByMissing: Map<string, string> }> {
  const slice = new TimeSlice();
  const it = Symbol.asyncIterator in normTasksList ? normTasksList[Symbol.asyncIterator]() : normTasksList[Symbol.iterator]();
  type Chunk = { taskList: NormTask[]; jobs: Job[]; listings?: Listings; ctrfs?: ReadonlyMap<string, FileRead> };
  const nextChunk = async (): Promise<Chunk | undefined> => {
    const taskList: NormTask[] = [];
    const jobs: Job[] = [];
    while (jobs.length < CHUNK_REPEATS) {
      const n = await it.next();
      if (n.done) break;
      taskList.push(n.value);
      for (const r of n.value.repeats) jobs.push({ t: n.value, r, ...classifyRepeat(r.raw) });
      if (slice.due) await slice.yield();
    }
    if (!taskList.length) return undefined;
    const listings = known ?? await prelist(fs, root, jobs, slice);
    const ctrfs = await preread(fs, root, jobs, listings, slice);
    return { taskList, jobs, listings, ctrfs };
  };
  const whoByMissing = new Map<string, string>();
  const tasks: Task[] = [];
  let ahead = nextChunk();
  ahead.catch(() => undefined); // (awaited below; not unhandled if the health verdicts' read throws first)
  // The first chunk is listed while the health verdicts are still being read (`healthAsked`): nothing is built, and no
  // problem said, before they are in, so the problems keep their order.
  const health = await healthAsked;
  for (let c = await ahead; c; c = await ahead) {
    ahead = nextChunk(); // the next chunk listed and read (on the lister's thread) while this one is built
    ahead.catch(() => undefined); // (awaited in the next round; not unhandled if this round throws)
    const { taskList, jobs } = c;
    const prefetched = { listings: c.listings, ctrfs: c.ctrfs };
    const results: RepeatResult[] = new Array(jobs.length);
    let next = 0;
    // With every listing known (a summary just written), readRepeat answers without the disk: its awaits are
    // microtasks only, so the event loop gets a turn here whenever a slice has passed (40k repeats blocked it ~1 s).
    const worker = async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await readRepeat(fs, doc, root, jobs[i].t, jobs[i].r, health, jobs[i], prefetched);
        if (slice.due) await slice.yield();
      }
    };
    await Promise.all(Array.from({ length: Math.min(REPEAT_CONCURRENCY, jobs.length) }, worker));
    let k = 0;
    for (const t of taskList) {
      const attempts: Attempt[] = [];
      for (let j = 0; j < t.repeats.length; j++, k++) {
        const res = results[k];
        attempts.push(res.attempt);
        problems.push(...res.problems);
        for (const m of res.named) whoByMissing.set(m, res.who);
      }
      tasks.push(taskOf(t, attempts));
      release?.(t);
      if (slice.due) await slice.yield();
    }
  }
  return { tasks, whoByMissing };
}
