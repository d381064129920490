// Where the summary goes and how it names files (rules 1 and 6). All paths are absolute POSIX strings (FsPort's
// convention).
import type { FsPort } from '../fs/port';

// The POSIX path helpers live in core/paths.ts; re-exported for the summary modules that import them from here.
export { basename, dirname, isAbsolutePath, isNormalAbsolute, joinPath, normalizePath, relativePath, resolvePath, stemOf, withoutSuffix } from '../paths';
import { basename, dirname, joinPath, normalizePath, relativePath, stemOf } from '../paths';

export const RUN_SUMMARY_SUFFIX = '_run_summary.json';

/** NeMo Gym's sidecars of a rollouts file `<stem>.jsonl`: a `.jsonl` whose stem ends so is not a rollouts file. */
const SIDECAR_STEM_SUFFIXES = ['_failures', '_materialized_inputs', '_prepare', '_attempts', '_multistage_state', '_items', '_task'];

/** Rule 1: `<rollouts stem>_run_summary.json` beside the rollouts path the command asked for. */
export function runSummaryPathFor(rolloutsPath: string): string {
  const p = normalizePath(rolloutsPath);
  return joinPath(dirname(p), `${stemOf(basename(p))}${RUN_SUMMARY_SUFFIX}`);
}

export function isRunSummaryPath(p: string): boolean {
  return p.endsWith(RUN_SUMMARY_SUFFIX) && basename(p).length > RUN_SUMMARY_SUFFIX.length;
}

/** The inverse of runSummaryPathFor: `<dir>/<stem>.jsonl` for `<dir>/<stem>_run_summary.json`. */
export function rolloutsPathForSummary(summaryPath: string): string {
  const base = summaryPath.endsWith(RUN_SUMMARY_SUFFIX) ? summaryPath.slice(0, -RUN_SUMMARY_SUFFIX.length) : summaryPath.replace(/\.json$/, '');
  return `${base}.jsonl`;
}

/** The stem of a rollouts file (`rollouts` for `rollouts.jsonl`) when the name is not itself a sidecar. */
export function rolloutsStem(name: string): string | undefined {
  if (!name.endsWith('.jsonl')) return undefined;
  const stem = name.slice(0, -'.jsonl'.length);
  if (!stem || stem === 'rollout_verdicts' || SIDECAR_STEM_SUFFIXES.some((s) => stem.endsWith(s))) return undefined;
  return stem;
}

/** JSONL files that are never rollouts besides NeMo Gym's own sidecars: health verdicts, metrics. */
const NOT_ROLLOUTS = /(_verdicts|_metrics|\/metrics)\.jsonl$/;

/**
 * Whether a path can be a rollouts file: a `.jsonl` that is not a sidecar, verdicts or metrics file, nor under
 * `preprocessed_datasets/` (collated input). The ONE answer; package.json's `when` clauses of "Write Run Summary"
 * say the same (test/unit/manifest.test.ts checks them against this).
 */
export function isRolloutsFile(p: string): boolean {
  return rolloutsStem(basename(p)) !== undefined && !NOT_ROLLOUTS.test(`/${p}`) && !p.includes('/preprocessed_datasets/');
}

/**
 * Why a path given as the rollouts file cannot be one (isRolloutsFile says no), in words for a person who typed it:
 * one of NeMo Gym's sidecars, health verdicts, metrics, the collated input, or not a `.jsonl` at all (a stem typed
 * without its extension: its sidecars would be read as a run whose rollouts are all missing). undefined: it can be.
 */
export function notRolloutsWhy(p: string): string | undefined {
  if (isRolloutsFile(p)) return undefined;
  const name = basename(p);
  if (!name.endsWith('.jsonl')) return `${name} is not a rollouts file (no .jsonl ending: ${name}.jsonl?)`;
  const stem = name.slice(0, -'.jsonl'.length);
  const sidecar = SIDECAR_STEM_SUFFIXES.find((s) => stem.endsWith(s) && stem.length > s.length);
  if (sidecar) return `${name} is the ${sidecar.slice(1)} sidecar of ${stem.slice(0, -sidecar.length)}.jsonl, not a rollouts file: give that one`;
  if (p.includes('/preprocessed_datasets/')) return `${name} is the collated input under preprocessed_datasets/, not a rollouts file`;
  return `${name} is not a rollouts file (health verdicts or metrics)`;
}

/** The sidecar `harbor-runs signatures` records the output signatures to: `<rollouts stem>_signatures.json`. */
export function signaturesPathFor(rolloutsPath: string): string {
  const p = normalizePath(rolloutsPath);
  return joinPath(dirname(p), `${stemOf(basename(p))}_signatures.json`);
}

/**
 * Relates paths to the summary's folder: folders' links resolved (the summary's folder fully, a target's own name
 * kept, rule 6), with a cache of resolved folders so a 40k-row run costs one realpath per distinct folder.
 */
export class PathRelator {
  private readonly dirCache = new Map<string, Promise<string>>();
  /** The folders resolved so far (what dirCache's promises settled to), for relSync. */
  private readonly resolved = new Map<string, string>();

  private constructor(private readonly fs: FsPort, readonly summaryDir: string) {}

  static async create(fs: FsPort, summaryPath: string): Promise<PathRelator> {
    const dir = dirname(summaryPath);
    // The summary's folder may not exist yet (rule 1): resolve the nearest existing ancestor and keep the rest.
    const resolved = await resolveExisting(fs, dir);
    return new PathRelator(fs, resolved);
  }

  /** The path with its folders resolved, its own name kept. */
  async resolveDirs(p: string): Promise<string> {
    const parent = dirname(p);
    let r = this.dirCache.get(parent);
    if (!r) {
      r = this.fs.realpathDirs(joinPath(parent, '__probe__')).then((x) => dirname(x), () => parent)
        .then((x) => { this.resolved.set(parent, x); return x; });
      this.dirCache.set(parent, r);
    }
    return joinPath(await r, basename(p));
  }

  /** Rule 6: relative to the summary's folder, `..` allowed; absolute when no relative form exists. */
  async rel(p: string): Promise<string> {
    return this.relSync(p) ?? relativePath(this.summaryDir, await this.resolveDirs(p));
  }

  /** rel() without waiting, when the path's folder was resolved before; undefined otherwise. */
  relSync(p: string): string | undefined {
    const parent = dirname(p);
    let relParent = this.relParents.get(parent);
    if (relParent === undefined) {
      const r = this.resolved.get(parent);
      if (r === undefined) return undefined;
      relParent = relativePath(this.summaryDir, r);
      this.relParents.set(parent, relParent);
    }
    // relativePath(summaryDir, resolved parent + '/' + name), without relating every path anew.
    const name = basename(p);
    // A parent that is an ancestor of the summary's folder (`..`, `../..`): the path may be that folder or one of its
    // ancestors (`.`, `..`), so it is related in full, as are the names `.` and `..`.
    if (!name || name === '.' || name === '..' || relParent.endsWith('..')) return relativePath(this.summaryDir, joinPath(this.resolved.get(parent)!, name));
    return relParent === '.' ? name : relParent.endsWith('/') ? `${relParent}${name}` : `${relParent}/${name}`;
  }

  /** Each resolved folder related to the summary's folder (relSync's cache). */
  private readonly relParents = new Map<string, string>();
}

async function resolveExisting(fs: FsPort, dir: string): Promise<string> {
  const missing: string[] = [];
  let cur = dir;
  for (let guard = 0; guard < 256; guard++) {
    if (await fs.stat(cur)) {
      const real = dirname(await fs.realpathDirs(joinPath(cur, '__probe__')));
      return joinPath(real, ...missing.reverse());
    }
    const up = dirname(cur);
    if (up === cur) break;
    missing.push(basename(cur));
    cur = up;
  }
  return dir;
}
