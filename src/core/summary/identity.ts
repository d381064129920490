// Rule 2: where the run's identity comes from when no flag gives it. First the previous summary next to the rollouts
// (regenerating must not lose its target / agent / dataset source, name, version, skipped, unvalidated), then the
// generated run_config.yaml (taskset, agent, dataset folder and digests, artifacts_dir, rows path), then the dataset
// folder's manifest.toml `[dataset]` (source, name, version) when reachable.
import { DEFAULT_MAX_FILE_BYTES, type FsPort } from '../fs/port';
import type { Problem } from '../model';
import { joinPath } from './paths';
import { KeyPicker } from './scan';
import { parseSimpleYaml, runConfigIdentity, type RunConfigIdentity } from './runConfig';

export interface PreviousSummary {
  target?: string | null;
  taskset?: string | null;
  agent?: string | null;
  dataset?: { source?: string | null; name?: string | null; version?: string | null; folder?: string | null; digests?: Record<string, string> };
  skipped?: Record<string, string>;
  unvalidated?: Record<string, string>;
}

const PREVIOUS_KEYS = new KeyPicker(['target', 'taskset', 'agent', 'dataset', 'skipped', 'unvalidated']);

const strOrNull = (v: unknown): string | null | undefined => (typeof v === 'string' ? v : v === null ? null : undefined);

function reasons(v: unknown): Record<string, string> | undefined {
  if (Array.isArray(v)) {
    const out: Record<string, string> = {};
    for (const e of v) {
      if (e && typeof e === 'object' && typeof (e as { task_id?: unknown }).task_id === 'string') {
        const r = (e as { reason?: unknown }).reason;
        out[(e as { task_id: string }).task_id] = typeof r === 'string' ? r : '';
      }
    }
    return out;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, string> = {};
    for (const [k, r] of Object.entries(v)) if (typeof r === 'string') out[k] = r;
    return out;
  }
  return undefined;
}

/**
 * PREVIOUS_KEYS of the file, reading only as much of it as they need: our layout writes them before the task list,
 * so a 40k-repeat summary costs its first few hundred KB. While the file is not read to its end, the bytes up to
 * the last newline are tried (a value is never cut in the middle of a number that way), at doubling sizes (linear
 * time whatever the layout); only an error with the whole file read is an error.
 */
async function pickHead(fs: FsPort, path: string): Promise<Record<string, unknown>> {
  const parts: Uint8Array[] = [];
  let size = 0;
  let nextTry = 256 << 10;
  const joined = () => {
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    parts.length = 0;
    parts.push(all);
    return all;
  };
  for await (const part of fs.readChunks(path, 256 << 10)) {
    parts.push(part.slice());
    size += part.length;
    if (size < nextTry) continue;
    nextTry = size * 2;
    const head = joined();
    const cut = head.lastIndexOf(10);
    if (cut <= 0) continue;
    try { return PREVIOUS_KEYS.pick(head.subarray(0, cut), true); } catch { /* not enough yet (or broken: told at the end) */ }
  }
  return PREVIOUS_KEYS.pick(joined(), true);
}

/** The identity a previous summary holds (lenient: summaries other tools wrote are read too); undefined when none. */
export async function readPreviousSummary(fs: FsPort, summaryPath: string, problems: Problem[]): Promise<PreviousSummary | undefined> {
  const st = await fs.stat(summaryPath);
  if (!st || st.type !== 'file') return undefined;
  // Bounded like every other read (docs/untrusted-runs.md): a sparse 300 MB "summary" was read whole (~900 MB).
  const limit = fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (st.size > limit) {
    problems.push({ file: summaryPath, severity: 'warning', code: 'previous-summary-unreadable',
      message: `the previous summary is ${st.size} bytes, over the ${limit}-byte read limit: its identity is not kept` });
    return undefined;
  }
  let doc: unknown;
  // Only the identity keys are taken: the (possibly large) task list is skipped without being parsed.
  try { doc = await pickHead(fs, summaryPath); } catch (e) {
    problems.push({ file: summaryPath, severity: 'warning', code: 'previous-summary-unreadable',
      message: `the previous summary does not parse (${(e as Error).message}): its identity is not kept` });
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  const ds = d.dataset && typeof d.dataset === 'object' ? (d.dataset as Record<string, unknown>) : undefined;
  const digests = ds?.digests && typeof ds.digests === 'object' ? reasons(ds.digests) : undefined;
  return {
    target: strOrNull(d.target), taskset: strOrNull(d.taskset), agent: strOrNull(d.agent),
    dataset: ds ? {
      source: strOrNull(ds.source), name: strOrNull(ds.name), version: strOrNull(ds.version),
      folder: strOrNull(ds.folder), digests,
    } : undefined,
    skipped: reasons(d.skipped), unvalidated: reasons(d.unvalidated),
  };
}

/** The run config's identity; {} when the file is absent or holds none. */
export async function readRunConfig(fs: FsPort, path: string): Promise<RunConfigIdentity> {
  const st = await fs.stat(path);
  if (!st || st.type !== 'file') return {};
  try {
    return runConfigIdentity(parseSimpleYaml(new TextDecoder().decode(await fs.readFile(path))));
  } catch {
    return {};
  }
}

export interface ManifestDataset { source?: string; name?: string; version?: string }

/** `[dataset]` of `<folder>/manifest.toml` (flat `key = "value"` lines); {} when absent. Never throws. */
export async function readManifestDataset(fs: FsPort, folder: string): Promise<ManifestDataset> {
  const p = joinPath(folder, 'manifest.toml');
  const st = await fs.stat(p);
  if (!st || st.type !== 'file') return {};
  try {
    const out: ManifestDataset = {};
    let inDataset = false;
    for (const raw of new TextDecoder().decode(await fs.readFile(p)).split(/\r?\n/)) {
      const line = raw.trim();
      if (line.startsWith('[')) { inDataset = line === '[dataset]'; continue; }
      if (!inDataset) continue;
      const m = /^([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^#\s]+))/.exec(line);
      if (!m) continue;
      const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? m[4]);
      if (m[1] === 'source' || m[1] === 'name' || m[1] === 'version') out[m[1]] = value;
    }
    return out;
  } catch {
    return {};
  }
}

/** The identity this run's own files give (run config, manifest, rows); null where none records it. */
export interface RunIdentity {
  target: string | null;
  taskset: string | null;
  agent: string | null;
  dataset: { source: string | null; name: string | null; version: string | null; folder: string | null; digests: Record<string, string> };
}

/**
 * Item 1 of round 2: the identity is this run's. A flag wins; then what this run's files record; an earlier summary
 * only fills what no file of this run records (the target, always: no file holds it), and where it says otherwise
 * than this run's files, that is a warning (this run's value is written).
 */
export function resolveIdentity(flags: { target?: string | null; agent?: string | null; taskset?: string | null } | undefined,
  own: RunIdentity, previous: PreviousSummary | undefined, file: string, problems: Problem[]): RunIdentity {
  const pick = (key: string, flag: string | null | undefined, mine: string | null, prev: string | null | undefined): string | null => {
    if (flag !== undefined) return flag;
    if (mine !== null && prev != null && prev !== mine) {
      problems.push({ file, severity: 'warning', code: 'identity-changed',
        message: `the earlier summary says ${key} '${prev}', this run's files say '${mine}': this run's is written` });
    }
    return mine ?? prev ?? null;
  };
  const p = previous?.dataset;
  const digests = Object.keys(own.dataset.digests).length ? own.dataset.digests : p?.digests ?? {};
  return {
    target: pick('target', flags?.target, own.target, previous?.target),
    taskset: pick('taskset', flags?.taskset, own.taskset, previous?.taskset),
    agent: pick('agent', flags?.agent, own.agent, previous?.agent),
    dataset: {
      source: pick('dataset.source', undefined, own.dataset.source, p?.source),
      name: pick('dataset.name', undefined, own.dataset.name, p?.name),
      version: pick('dataset.version', undefined, own.dataset.version, p?.version),
      folder: pick('dataset.folder', undefined, own.dataset.folder, p?.folder),
      digests,
    },
  };
}
