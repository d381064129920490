// Finds every run of every kind below a folder: NeMo Gym run summaries and rollouts files without one, Harbor job
// folders, viewer data datasets and training runs. One readDir per folder visited (entry types come with it), a stat
// only to confirm a viewer project; never descends into what cannot hold a run (node_modules, .git, a job's trials,
// NeMo verifier folders, a dataset's traces). Include / exclude globs match paths relative to the root.
import * as path from 'node:path';
import type { EntryType, FsPort } from './fs/port';
import type { SourceKind } from './model';
import { excludesFolder, matchesAny } from './glob';
import { RUN_SUMMARY_SUFFIX as SUMMARY_SUFFIX, isRolloutsFile, rolloutsStem } from './summary/paths';
import { isHarborJobDir } from './readers/harborJob';
import { parseJsonBounded } from './jsonDepth';
import { isInside } from './containment';
import { formatCount, plural } from './format';

export type RunVariant = 'summary' | 'rollouts' | 'job' | 'dataset' | 'training';

export interface RunCandidate {
  kind: SourceKind;
  /** The file or folder that makes it a run: the summary or rollouts file, the job dir, summary.json, run.json. */
  anchor: string;
  /** The folder the run lives in. */
  root: string;
  variant: RunVariant;
}

export interface DiscoverOptions {
  include?: string[];
  exclude?: string[];
  /** Folder levels below the root to look into (default 10). */
  maxDepth?: number;
  /** Stop after visiting this many folders (default 50,000). */
  maxDirs?: number;
  /** Folders read at once (default 8). */
  concurrency?: number;
  /** Filled with what discovery did not look at, and why: links not followed, the folder cap reached. */
  report?: DiscoveryReport;
}

/** A link discovery did not follow. */
export interface SkippedLink {
  /** The link, as found below the root. */
  path: string;
  /** Where it resolves to. */
  target: string;
  /** 'outside': it leaves the folder searched (never followed); 'inside': its target is read at its own path. */
  why: 'outside' | 'inside';
}

export interface DiscoveryReport {
  links: SkippedLink[];
  /** Set when discovery stopped at maxDirs folders: the cap, and how many folders it had found and not read. */
  capped?: { maxDirs: number; notRead: number };
  /** False when the file system cannot resolve links (they were then not recognised; depth and the cap still bound). */
  linksResolved: boolean;
}

export function emptyDiscoveryReport(): DiscoveryReport {
  return { links: [], linksResolved: true };
}

/** One line for a person: a link discovery did not follow, and why. */
export function describeLink(root: string, l: SkippedLink): string {
  const rel = path.posix.relative(root, l.path) || '.';
  return l.why === 'outside'
    ? `${rel} is a link to ${l.target}, outside ${root}: not followed`
    : `${rel} is a link to ${l.target}: read there, once`;
}

/** One line for a person: where discovery stopped. */
export function describeCap(c: NonNullable<DiscoveryReport['capped']>): string {
  const n = formatCount;
  return `stopped after ${n(c.maxDirs)} folders: ${plural(c.notRead, 'folder', undefined, n)} found (and what is below them) not read`;
}

/** The real path of a path (every link resolved), or undefined when it is not there or the file system cannot say. */
export async function realPathOf(fs: FsPort, p: string): Promise<string | undefined> {
  return fs.realpath ? fs.realpath(p) : undefined;
}

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', '.mypy_cache', '.pytest_cache', '.tox']);
const TRIAL_PARTS = new Set(['agent', 'verifier', 'artifacts', 'steps', 'user-agent']);
/**
 * A trial folder's name as Harbor makes it: the task's name, `__`, seven random letters and digits (`fix-git__Xk3pQ7a`;
 * docs/formats.md#harbor-job).
 */
const HARBOR_TRIAL_NAME = /__[A-Za-z0-9]{7}$/;
/** The names inspectFolder tells a run's folder by (the NeMo Gym names are matched against every file). */
const MARK_NAMES = new Set(['summary.json', 'run.json', 'config.json', 'result.json', 'agent', 'verifier']);

const kindOf: Record<RunVariant, SourceKind> = {
  summary: 'nemo-gym', rollouts: 'nemo-gym', job: 'harbor-job', dataset: 'viewer-data', training: 'viewer-data',
};

function candidate(variant: RunVariant, anchor: string, root: string): RunCandidate {
  return { kind: kindOf[variant], anchor, root, variant };
}


/** The rollouts files a quality_summary.json records as the ones it was computed from (run.rollouts). */
async function qualitySummaryRollouts(fs: FsPort, dir: string): Promise<string[]> {
  try {
    const v = parseJsonBounded(new TextDecoder('utf-8').decode(await fs.readFile(`${dir}/quality_summary.json`))) as unknown;
    const list = (v as { run?: { rollouts?: unknown } } | null)?.run?.rollouts;
    if (!Array.isArray(list)) return [];
    return list.filter((x): x is string => typeof x === 'string').map((r) => path.posix.resolve(dir, r));
  } catch {
    return [];
  }
}

interface Found {
  runs: RunCandidate[];
  /** Subfolder names not to descend into. */
  skip: Set<string>;
  /** Do not descend at all (the folder is a run). */
  stop: boolean;
  /** The folder looks like a Harbor trial (result.json or config.json beside agent/ or verifier/). */
  trial?: boolean;
}

async function inspectFolder(fs: FsPort, dir: string, entries: [string, EntryType][], projectOk: (p: string) => Promise<boolean>): Promise<Found> {
  // The few names the kinds are told by, found in one pass: a job folder of 10,000 trials is told without a set of
  // its 10,000 names (the sets are made below, for NeMo Gym's names, only when it is not a job or a dataset).
  const marks = new Map<string, EntryType>();
  for (const [name, type] of entries) if (MARK_NAMES.has(name)) marks.set(name, type);
  const isFile = (n: string) => marks.has(n) && marks.get(n) !== 'dir';
  const isDir = (n: string) => marks.get(n) === 'dir';
  const runs: RunCandidate[] = [];
  const skip = new Set<string>();
  const parent = path.posix.dirname(dir);
  const grand = path.posix.dirname(parent);
  const parentName = path.posix.basename(parent);
  const projectsName = path.posix.basename(path.posix.dirname(grand));

  // Viewer data: projects/<p>/datasets/<d>/summary.json and projects/<p>/runs/<r>/run.json.
  if (projectsName === 'projects' && (parentName === 'datasets' || parentName === 'runs')) {
    const isDataset = parentName === 'datasets' && isFile('summary.json');
    const isTraining = parentName === 'runs' && isFile('run.json');
    if ((isDataset || isTraining) && (await projectOk(grand))) {
      runs.push(isDataset ? candidate('dataset', `${dir}/summary.json`, dir) : candidate('training', `${dir}/run.json`, dir));
      return { runs, skip, stop: true };
    }
  }

  // Harbor: a job folder holds its trials; nothing below it is another run.
  if ((isFile('config.json') || isFile('result.json')) && (await isHarborJobDir(fs, dir, entries))) {
    return { runs: [candidate('job', dir, dir)], skip, stop: true };
  }
  const trial = (isFile('result.json') || isFile('config.json')) && (isDir('agent') || isDir('verifier'));
  if (trial) for (const d of TRIAL_PARTS) skip.add(d); // a trial folder: its logs hold no runs

  const files = new Set<string>();
  for (const [name, type] of entries) if (type !== 'dir') files.add(name);

  // NeMo Gym: summaries, and rollouts files that have none yet.
  const named = new Set<string>();
  for (const f of files) {
    if (f.endsWith(SUMMARY_SUFFIX) && f.length > SUMMARY_SUFFIX.length) {
      runs.push(candidate('summary', `${dir}/${f}`, dir));
      named.add(`${dir}/${f.slice(0, -SUMMARY_SUFFIX.length)}.jsonl`);
    }
  }
  const rollouts = new Set<string>();
  for (const f of files) {
    const stem = rolloutsStem(f);
    if (stem && isRolloutsFile(`${dir}/${f}`) && (files.has(`${stem}_materialized_inputs.jsonl`) || files.has(`${stem}_failures.jsonl`))) rollouts.add(`${dir}/${f}`);
  }
  if (files.has('quality_summary.json')) {
    for (const r of await qualitySummaryRollouts(fs, dir)) {
      const rdir = path.posix.dirname(r);
      const name = path.posix.basename(r);
      if (!isRolloutsFile(r)) continue;
      const here = rdir === dir ? files.has(name) : (await fs.stat(r))?.type === 'file';
      const hasSummary = rdir === dir ? files.has(`${name.slice(0, -6)}${SUMMARY_SUFFIX}`) : (await fs.stat(`${r.slice(0, -6)}${SUMMARY_SUFFIX}`)) !== undefined;
      if (here && !hasSummary) rollouts.add(r);
    }
  }
  for (const r of rollouts) if (!named.has(r)) runs.push(candidate('rollouts', r, path.posix.dirname(r)));
  if (runs.length) skip.add('verifier'); // the NeMo Gym artifacts_dir: one folder per verification
  return { runs, skip, stop: false, trial };
}

/** A candidate for a file given directly as the root. */
async function fileCandidate(fs: FsPort, file: string): Promise<RunCandidate[]> {
  const dir = path.posix.dirname(file);
  const name = path.posix.basename(file);
  if (name.endsWith(SUMMARY_SUFFIX)) return [candidate('summary', file, dir)];
  if (name === 'summary.json') return [candidate('dataset', file, dir)];
  if (name === 'run.json') return [candidate('training', file, dir)];
  if (isRolloutsFile(file)) {
    const summary = `${file.slice(0, -6)}${SUMMARY_SUFFIX}`;
    return (await fs.stat(summary)) ? [candidate('summary', summary, dir)] : [candidate('rollouts', file, dir)];
  }
  if (name === 'result.json' || name === 'config.json') {
    if (await isHarborJobDir(fs, dir)) return [candidate('job', dir, dir)];
  }
  return [];
}

/**
 * The runs whose anchor file is inside the root once links are resolved: a `x_run_summary.json` (or rollouts,
 * summary.json, run.json) that is a link leaving the root is reported and not read.
 */
async function containedRuns(fs: FsPort, root: string, rootReal: string, runs: RunCandidate[], report?: DiscoveryReport): Promise<RunCandidate[]> {
  const out: RunCandidate[] = [];
  for (const c of runs) {
    if (c.anchor === c.root) { out.push(c); continue; } // a job folder: checked as a folder
    // A quality_summary.json may name a rollouts file anywhere (`../../x.jsonl`): only those inside the root count.
    const real = isInside(root, c.anchor) ? await realPathOf(fs, c.anchor) : c.anchor;
    if (real !== undefined && !isInside(rootReal, real)) {
      report?.links.push({ path: c.anchor, target: real, why: 'outside' });
      continue;
    }
    out.push(c);
  }
  return out;
}

function rel(root: string, p: string): string {
  const r = path.posix.relative(root, p);
  return r === '' ? '.' : r;
}

/** Every run candidate below root (or root itself), sorted by anchor. */
export async function discoverRuns(fs: FsPort, root: string, opts: DiscoverOptions = {}): Promise<RunCandidate[]> {
  const maxDepth = opts.maxDepth ?? 10;
  const maxDirs = opts.maxDirs ?? 50_000;
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const exclude = opts.exclude ?? [];
  const st = await fs.stat(root);
  if (!st) return [];
  let found: RunCandidate[] = [];
  const base = st.type === 'file' ? path.posix.dirname(root) : root;
  if (st.type === 'file') {
    found = await fileCandidate(fs, root);
  } else {
    const projects = new Map<string, Promise<boolean>>();
    const projectOk = (p: string) => {
      let hit = projects.get(p);
      if (!hit) {
        // A project.json that is not a regular file (a FIFO) still makes the project: its reader says why it is not
        // read (not-a-file), rather than the project's runs vanishing without a word. A folder of that name does not.
        hit = fs.stat(`${p}/project.json`).then((s) => s !== undefined && s.type !== 'dir');
        projects.set(p, hit);
      }
      return hit;
    };
    const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
    const prunedJobs = new Set<string>();
    let visited = 0;
    // Each real folder is read once, at its own path: a folder reached through a link whose target is inside the root
    // is skipped (the target is read where it is: a `latest` link lists nothing twice, `loop -> ..` ends there); a
    // link leaving the root is never followed (`everything -> /` does not scan the machine). Both are reported.
    const rootReal = (await realPathOf(fs, root)) ?? root;
    const worker = async () => {
      for (;;) {
        // The cap is checked before a folder is taken off the queue: a folder not read stays counted in `notRead`.
        if (visited >= maxDirs) return;
        const next = queue.shift();
        if (!next) return;
        if (next.depth > 0) {
          const real = await realPathOf(fs, next.dir);
          // The folder's path below the root ('/x/y'); a root of '/' is the one that ends in a slash.
          const below = root === '/' ? next.dir : next.dir.slice(root.length);
          const lexical = rootReal === '/' ? below : rootReal + below;
          if (real !== undefined && real !== lexical) {
            opts.report?.links.push({ path: next.dir, target: real, why: isInside(rootReal, real) ? 'inside' : 'outside' });
            continue;
          }
        }
        visited++;
        const entries = await fs.readDir(next.dir);
        const f = await inspectFolder(fs, next.dir, entries, projectOk);
        found.push(...await containedRuns(fs, root, rootReal, f.runs, opts.report));
        // A Harbor trial (named as Harbor names them) whose folder holds no job files: a job whose config.json and
        // result.json were pruned (or never copied). Its folder is read as the job (its reader says which job files
        // are missing); nothing more below it is looked at, as below a job found by its files.
        if (f.trial && next.depth > 0 && HARBOR_TRIAL_NAME.test(path.posix.basename(next.dir))) {
          const job = path.posix.dirname(next.dir);
          if (!prunedJobs.has(job)) {
            prunedJobs.add(job);
            found.push(candidate('job', job, job));
            for (let i = queue.length - 1; i >= 0; i--) if (queue[i].dir.startsWith(`${job}/`)) queue.splice(i, 1);
          }
          continue;
        }
        if (f.stop || next.depth >= maxDepth) continue;
        for (const [name, type] of entries) {
          if (type !== 'dir' || SKIP_DIRS.has(name) || f.skip.has(name) || name.startsWith('resources-session-')) continue;
          const child = next.dir === '/' ? `/${name}` : `${next.dir}/${name}`;
          const r = rel(base, child);
          if (exclude.some((g) => excludesFolder(g, r))) continue;
          queue.push({ dir: child, depth: next.depth + 1 });
        }
      }
    };
    // Workers stop when the queue is momentarily empty; rerun until nothing is left.
    while (queue.length && visited < maxDirs) await Promise.all(Array.from({ length: concurrency }, worker));
    if (opts.report) {
      if (queue.length) opts.report.capped = { maxDirs, notRead: queue.length };
      opts.report.linksResolved = fs.realpath !== undefined;
      opts.report.links.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
  }
  const seen = new Set<string>();
  found = found.filter((c) => {
    const key = `${c.variant}:${c.anchor}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const ra = rel(base, c.anchor);
    const rr = rel(base, c.root);
    if (opts.include?.length && !matchesAny(opts.include, ra) && !matchesAny(opts.include, rr)) return false;
    return !matchesAny(exclude, ra) && !matchesAny(exclude, rr);
  });
  return found.sort((a, b) => (a.anchor < b.anchor ? -1 : a.anchor > b.anchor ? 1 : 0));
}
