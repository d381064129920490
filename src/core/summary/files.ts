// The run's files under their stable `files` keys (rule 3) and the freshness rules that decide whether a file is
// this run's (rules 8, 10, 11). Names follow the Gym code (docs/formats.md#nemo-gym).
import type { FileStat, FsPort } from '../fs/port';
import type { Problem } from '../model';
import type { RunSummaryFiles } from '../schemas/runSummary';
import { type FileKey, STALE_KEYS, type StaleKey } from './layout';
import { basename, dirname, joinPath, stemOf, withoutSuffix, type PathRelator } from './paths';
import { healthReports } from './health';
import { fileSignature, sameSignature, type OutputSignatures } from './signatures';

/** The names a fresh start may leave stale: rollouts, `<stem>_failures.jsonl`, `<stem>_materialized_inputs.jsonl`. */
export function outputPaths(rolloutsPath: string): Record<StaleKey, string> {
  const dir = dirname(rolloutsPath);
  const stem = stemOf(basename(rolloutsPath));
  return {
    rollouts: rolloutsPath,
    failures: joinPath(dir, `${stem}_failures.jsonl`),
    materialized_inputs: joinPath(dir, `${stem}_materialized_inputs.jsonl`),
  };
}

/** Every file of the run by its key (health reports included), whether or not it exists. */
export function runFilePaths(rolloutsPath: string, split: string, rowsPath: string): Record<FileKey, string> {
  const dir = dirname(rolloutsPath);
  const stem = stemOf(basename(rolloutsPath));
  const rowsDir = dirname(rowsPath);
  const rowsStem = stemOf(basename(rowsPath));
  const collatedDir = joinPath(withoutSuffix(rolloutsPath), 'preprocessed_datasets');
  return {
    ...outputPaths(rolloutsPath),
    aggregate_metrics: joinPath(dir, `${stem}_aggregate_metrics.json`),
    rows: rowsPath,
    rows_prepare: joinPath(rowsDir, `${rowsStem}_prepare.jsonl`),
    rows_metrics: joinPath(rowsDir, `${rowsStem}_metrics.json`),
    collated: joinPath(collatedDir, `${split}.jsonl`),
    collated_metrics: joinPath(collatedDir, `${split}_metrics.json`),
    collated_conflict: joinPath(collatedDir, `${split}_metrics_conflict.json`),
    run_config: joinPath(rowsDir, 'run_config.yaml'),
    quality_summary: joinPath(dir, 'quality_summary.json'),
    rollout_verdicts: joinPath(dir, 'rollout_verdicts.jsonl'),
    sources: joinPath(dir, `${stem}_sources.json`),
  };
}

export interface FilesResult {
  files: RunSummaryFiles;
  stale: Record<string, string>;
  /** Absolute paths of the output files whose rows are this run's (null: absent or stale). */
  readable: Record<StaleKey, string | null>;
  /** Absolute path of the materialized inputs even when stale (the schedule fallback, see build.ts). */
  staleMaterialized: string | null;
  paths: Record<FileKey, string>;
}

async function fileStat(fs: FsPort, p: string): Promise<FileStat | undefined> {
  const st = await fs.stat(p);
  return st && st.type === 'file' ? st : undefined;
}

export interface CollectFilesArgs {
  rolloutsPath: string;
  split: string;
  rowsPath: string;
  beforeDispatch: OutputSignatures | null;
  problems: Problem[];
}

export async function collectFiles(fs: FsPort, rel: PathRelator, a: CollectFilesArgs): Promise<FilesResult> {
  const paths = runFilePaths(a.rolloutsPath, a.split, a.rowsPath);
  const stats = {} as Record<FileKey, FileStat | undefined>;
  await Promise.all((Object.keys(paths) as FileKey[]).map(async (k) => { stats[k] = await fileStat(fs, paths[k]); }));
  const relIf = async (k: FileKey): Promise<string | null> => (stats[k] ? rel.rel(paths[k]) : null);

  // Rule 10: an output still carrying the signature taken before dispatch was left by an earlier run.
  const stale: Record<string, string> = {};
  const readable = {} as Record<StaleKey, string | null>;
  const own = {} as Record<StaleKey, string | null>;
  for (const k of STALE_KEYS) {
    const st = stats[k];
    if (!st) { readable[k] = null; own[k] = null; continue; }
    const before = a.beforeDispatch ? a.beforeDispatch[k] : null;
    if (before && before.size === st.size && before.mtime_ms === st.mtimeMs
      && sameSignature(before, await signatureNow(fs, paths[k], st))) {
      stale[k] = await rel.rel(paths[k]);
      a.problems.push({ file: paths[k], severity: 'warning', code: 'stale-file',
        message: `${basename(paths[k])} is unchanged since before dispatch: an earlier run left it, its rows are not read` });
      readable[k] = null; own[k] = null;
    } else {
      readable[k] = paths[k];
      own[k] = await rel.rel(paths[k]);
    }
  }
  const rollouts = readable.rollouts ? stats.rollouts : undefined;

  // Rule 8: files written once the collection completed are this run's only when at least as new as the rollouts.
  const atLeastAsNew = (k: FileKey): boolean => !!(rollouts && stats[k] && stats[k].mtimeMs >= rollouts.mtimeMs);
  // Rule 11: the rows sidecar is this run's only when the processor rewrote it after prepare rewrote the rows;
  // absent (prepare removed it, the processor did not run) or older than the rows = the prepared input was reused.
  const rowsMetricsOwn = !!(stats.rows && stats.rows_metrics && stats.rows_metrics.mtimeMs >= stats.rows.mtimeMs);
  const health = await healthReports(fs, rel, {
    rolloutsPath: readable.rollouts, rolloutsStat: rollouts, sourcesPath: stats.sources ? paths.sources : null,
    qualityPath: paths.quality_summary, verdictsPath: paths.rollout_verdicts, problems: a.problems,
  });

  const files: RunSummaryFiles = {
    rollouts: own.rollouts,
    failures: own.failures,
    materialized_inputs: own.materialized_inputs,
    aggregate_metrics: atLeastAsNew('aggregate_metrics') ? await relIf('aggregate_metrics') : null,
    rows: await relIf('rows'),
    rows_prepare: await relIf('rows_prepare'),
    rows_metrics: rowsMetricsOwn ? await relIf('rows_metrics') : null,
    collated: await relIf('collated'),
    collated_metrics: await relIf('collated_metrics'),
    ...(stats.collated_conflict ? { collated_conflict: await relIf('collated_conflict') } : {}),
    run_config: await relIf('run_config'),
    quality_summary: health.quality_summary,
    rollout_verdicts: health.rollout_verdicts,
    ...(stats.sources ? { sources: await relIf('sources') } : {}),
  };
  return {
    files, stale, readable, paths,
    staleMaterialized: stale.materialized_inputs ? paths.materialized_inputs : null,
  };
}

async function signatureNow(fs: FsPort, p: string, st: FileStat) {
  return (await fileSignature(fs, p)) ?? { size: st.size, mtime_ms: st.mtimeMs, head_sha256: '' };
}
