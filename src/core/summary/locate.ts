// Where the run's own files are. The run config (and with it the prepared rows, the dataset and the agent) is
// `run_config.yaml` in the results folder `results/harbor/<taskset>/`, which is also where the rollouts go unless
// `+output_jsonl_fpath` put them elsewhere. So the run config is, in this order: the one the caller names
// (`--run-config`), the one beside the rollouts, else the one in the results folder the rows name (the parent of the
// verifier folders' `artifacts_dir`, when that config names the same `artifacts_dir` or prepared rows there).
// A results folder moved as a whole is located through MovedRoot (verification.ts).
import type { FsPort } from '../fs/port';
import { jsonlLines } from '../jsonl';
import type { Problem } from '../model';
import { readRunConfig } from './identity';
import { dirname, joinPath, normalizePath, resolvePath } from './paths';
import type { RunConfigIdentity } from './runConfig';
import { KeyPicker } from './scan';
import { MovedRoot } from './verification';

export interface RunPlace {
  config: RunConfigIdentity;
  /** The run config used; null when none was found. */
  configPath: string | null;
  /** The results folder as it is now: the run config's folder, else the rollouts' folder. */
  resultsDir: string;
  /** The results root the run had, when it no longer exists (the folder was moved); see MovedRoot. */
  originalRoot: string | null;
  root: MovedRoot;
  /** The prepared rows: the run config's `datasets[].jsonl_fpath` (located), else `tasks.jsonl` in the results folder. */
  rowsPath: string;
}

const LOGS_DIR = new KeyPicker(['verifier_logs_dir']);
/** Rows looked at for a verifier folder when the run config must be found through them. */
const PEEK_ROWS = 64;

async function isFile(fs: FsPort, p: string): Promise<boolean> {
  return (await fs.stat(p))?.type === 'file';
}

/** The first `verifier_logs_dir` among the first rows of the rollouts file; undefined when none names one. */
async function firstLogsDir(fs: FsPort, rollouts: string): Promise<string | undefined> {
  try {
    for await (const { line, bytes } of jsonlLines(fs, rollouts)) {
      if (line > PEEK_ROWS) break;
      try {
        const v = LOGS_DIR.pick(bytes).verifier_logs_dir;
        if (typeof v === 'string' && v) return v;
      } catch { /* a bad row names nothing */ }
    }
  } catch { /* unreadable: told when the rows are read */ }
  return undefined;
}

/** The run config of the results folder the rows' verifier folders are in, when it names that folder. */
async function configThroughRows(fs: FsPort, rollouts: string): Promise<{ path: string; config: RunConfigIdentity } | undefined> {
  const logsDir = await firstLogsDir(fs, rollouts);
  if (!logsDir) return undefined;
  const artifactsDir = dirname(resolvePath(dirname(rollouts), logsDir));
  const resultsDir = dirname(artifactsDir);
  const path = joinPath(resultsDir, 'run_config.yaml');
  if (!(await isFile(fs, path))) return undefined;
  const config = await readRunConfig(fs, path);
  const names = (config.artifactsDir && normalizePath(config.artifactsDir) === artifactsDir)
    || (config.rowsPath && dirname(normalizePath(config.rowsPath)) === resultsDir);
  return names ? { path, config } : undefined;
}

export async function locateRun(fs: FsPort, rollouts: string, givenConfig: string | undefined, problems: Problem[]): Promise<RunPlace> {
  const rolloutsDir = dirname(rollouts);
  let configPath: string | null = null;
  let config: RunConfigIdentity = {};
  const beside = joinPath(rolloutsDir, 'run_config.yaml');
  if (givenConfig !== undefined) {
    configPath = resolvePath(rolloutsDir, givenConfig);
    config = await readRunConfig(fs, configPath);
    if (!(await isFile(fs, configPath))) {
      problems.push({ file: configPath, severity: 'warning', code: 'run-config-missing', message: `the run config given (${configPath}) is not there` });
      configPath = null;
    }
  } else if (await isFile(fs, beside)) {
    configPath = beside;
    config = await readRunConfig(fs, beside);
  } else {
    const found = await configThroughRows(fs, rollouts);
    if (found) {
      configPath = found.path;
      config = found.config;
    }
  }
  if (configPath && configPath !== beside) {
    problems.push({ file: configPath, severity: 'info', code: 'run-config-located',
      message: `run config used: ${configPath} (${givenConfig !== undefined ? 'as given' : 'the results folder the rows\' verifier folders are in'}); the prepared rows, agent and dataset come from there` });
  }
  const resultsDir = configPath ? dirname(configPath) : rolloutsDir;
  // A results folder moved as a whole: the root the run config names no longer exists.
  const named = config.rowsPath ? dirname(config.rowsPath) : config.artifactsDir ? dirname(config.artifactsDir) : null;
  const originalRoot = named && !(await fs.stat(named)) ? named : null;
  const root = new MovedRoot(originalRoot, resultsDir);
  const rowsPath = config.rowsPath ? await root.locate(fs, config.rowsPath) : joinPath(resultsDir, 'tasks.jsonl');
  return { config, configPath, resultsDir, originalRoot, root, rowsPath };
}

/** The place once every row was read: without a run config, the original root is guessed from the rows. */
export async function withRowsRoot(fs: FsPort, place: RunPlace, rowsRoot: string | null): Promise<RunPlace> {
  if (place.originalRoot || !rowsRoot || (await fs.stat(rowsRoot))) return place;
  return { ...place, originalRoot: rowsRoot, root: new MovedRoot(rowsRoot, place.resultsDir) };
}
