// Rule 9: the health check's two reports (`quality_summary.json`, `rollout_verdicts.jsonl`) keep one name per folder
// whatever the --output stem, so they are linked only when the quality summary records this rollouts file — or the
// shards of a merged file, as `<stem>_sources.json` lists them — as the one it was computed from, and it is at least
// as new as the rollouts. The verdicts follow the summary.
//
// `<stem>_sources.json` (gym eval aggregate; layout settled here): either a JSON list of shard paths, or an object
// `{"shards": [...]}`; each entry a path string or `{"path": "..."}`; relative paths are relative to the sidecar's
// folder. `run.rollouts` of the quality summary: a list of paths (a single string accepted), relative to the report's
// folder.
import type { FileStat, FsPort } from '../fs/port';
import type { Problem } from '../model';
import { dirname, resolvePath, type PathRelator } from './paths';
import { parseJsonBounded } from '../jsonDepth';

async function readJson(fs: FsPort, p: string): Promise<unknown> {
  return parseJsonBounded(new TextDecoder().decode(await fs.readFile(p)));
}

/** The rollouts files the quality summary records (`run.rollouts`), located; null when it records none or does not parse. */
export async function recordedSources(fs: FsPort, qualityPath: string): Promise<string[] | null> {
  let doc: unknown;
  try { doc = await readJson(fs, qualityPath); } catch { return null; }
  // QualitySummarySchema's shape, checked by hand so the writer loads without zod.
  const run = doc && typeof doc === 'object' ? (doc as { run?: unknown }).run : undefined;
  const r = run && typeof run === 'object' ? (run as { rollouts?: unknown }).rollouts : undefined;
  const list = typeof r === 'string' ? [r] : Array.isArray(r) && r.every((x) => typeof x === 'string') ? (r as string[]) : null;
  if (!list) return null;
  const base = dirname(qualityPath);
  return Promise.all(list.map((p) => fs.realpathDirs(resolvePath(base, p))));
}

/** The shards `<stem>_sources.json` lists, located; [] without that sidecar or when it holds no list. */
export async function aggregationShards(fs: FsPort, sourcesPath: string | null, problems?: Problem[]): Promise<string[]> {
  if (!sourcesPath) return [];
  let doc: unknown;
  try { doc = await readJson(fs, sourcesPath); } catch (e) {
    problems?.push({ file: sourcesPath, severity: 'warning', code: 'sources-unreadable',
      message: `${sourcesPath} does not parse: ${(e as Error).message}` });
    return [];
  }
  const list = Array.isArray(doc) ? doc
    : doc && typeof doc === 'object' && Array.isArray((doc as { shards?: unknown }).shards) ? (doc as { shards: unknown[] }).shards
      : undefined;
  if (!list) {
    problems?.push({ file: sourcesPath, severity: 'warning', code: 'sources-unreadable',
      message: `${sourcesPath} holds no list of shards (expected [paths] or {"shards": [paths]})` });
    return [];
  }
  const base = dirname(sourcesPath);
  const out: string[] = [];
  for (const e of list) {
    const p = typeof e === 'string' ? e
      : e && typeof e === 'object' && typeof (e as { path?: unknown }).path === 'string' ? (e as { path: string }).path : undefined;
    if (p) out.push(await fs.realpathDirs(resolvePath(base, p)));
  }
  return out;
}

export interface HealthArgs {
  /** This run's own rollouts (null: none, or stale). */
  rolloutsPath: string | null;
  rolloutsStat: FileStat | undefined;
  sourcesPath: string | null;
  qualityPath: string;
  verdictsPath: string;
  problems: Problem[];
}

export async function healthReports(fs: FsPort, rel: PathRelator, a: HealthArgs):
Promise<{ quality_summary: string | null; rollout_verdicts: string | null }> {
  const none = { quality_summary: null, rollout_verdicts: null };
  const q = await fs.stat(a.qualityPath);
  if (!q || q.type !== 'file') return none;
  const note = (why: string) => a.problems.push({ file: a.qualityPath, severity: 'info', code: 'health-report-not-linked',
    message: `quality_summary.json is not linked: ${why}` });
  if (!a.rolloutsPath || !a.rolloutsStat) { note('the run has no rollouts of its own'); return none; }
  if (q.mtimeMs < a.rolloutsStat.mtimeMs) { note('it is older than the rollouts'); return none; }
  const recorded = await recordedSources(fs, a.qualityPath);
  if (!recorded) { note('it records no run.rollouts (or does not parse)'); return none; }
  const self = await fs.realpathDirs(a.rolloutsPath);
  const shards = await aggregationShards(fs, a.sourcesPath, a.problems);
  const names = new Set(recorded);
  const ours = names.has(self) || (shards.length > 0 && shards.every((s) => names.has(s)));
  if (!ours) { note('its run.rollouts names other rollouts'); return none; }
  const v = await fs.stat(a.verdictsPath);
  return {
    quality_summary: await rel.rel(a.qualityPath),
    rollout_verdicts: v && v.type === 'file' ? await rel.rel(a.verdictsPath) : null,
  };
}
