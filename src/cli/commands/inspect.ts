// `harbor-runs inspect <path> [--all] [--json] [--include GLOB]... [--exclude GLOB]...`: finds every run below path
// and prints, per run, its kind, identity, counts by outcome, pass@1 / pass@k, the tasks that need attention, missing
// or stale paths and problems (`--all`: every task and attempt; `--json`: the whole document).
// Exit 0 when it could read (problems in the data are reported, not fatal), 2 on usage errors, 1 when the path
// cannot be read.
import * as nodePath from 'node:path';
import { accessSync, constants } from 'node:fs';
import { parseArgs, UsageError } from '../args';
import { NodeFs } from '../../core/fs/nodeFs';
import { loadRuns } from '../../core/load';
import { inspectDocument, renderText } from '../../core/report';
import { writeJson } from '../jsonOut';
import { describeCap, describeLink, emptyDiscoveryReport } from '../../core/discovery';
import { safeLine } from '../../core/terminalText';
import { isHarborJobDir } from '../../core/readers/harborJob';
import type { FsPort } from '../../core/fs/port';

/** The command's usage line (also in `harbor-runs help`). */
export const USAGE = 'usage: harbor-runs inspect <path> [--all] [--json] [--include GLOB]... [--exclude GLOB]... [--max-folders N]\n';

/**
 * Where to look instead, when a path holds no run but is part of one: a Harbor trial folder, or a file or folder in
 * one (its job is the run: a trial is read with its job), or a trajectory (the trajectory command reads it).
 */
async function hintFor(fs: FsPort, root: string, isDir: boolean): Promise<string | undefined> {
  let dir = isDir ? root : nodePath.posix.dirname(root);
  for (let up = 0; up < 4 && dir !== '/'; up++) {
    const parent = nodePath.posix.dirname(dir);
    if (await isHarborJobDir(fs, parent).catch(() => false)) {
      return `${root} is part of the Harbor job ${parent}, which is the run: inspect that folder`;
    }
    dir = parent;
  }
  if (!isDir && /(^|[/._-])trajectory[^/]*\.json$/.test(root)) return `to read a trajectory: harbor-runs trajectory ${root}`;
  return undefined;
}

/** An absolute POSIX path for a command-line path. */
function toPosixAbsolute(p: string): string {
  return nodePath.resolve(p).split(nodePath.sep).join('/');
}

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { flags: ['json', 'all', 'help'], values: ['include', 'exclude', 'max-folders'] });
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`harbor-runs inspect: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args.flags.has('help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) {
    process.stderr.write(`harbor-runs inspect: ${args.positionals.length ? 'give one path' : 'missing <path>'}\n${USAGE}`);
    return 2;
  }
  const given = args.positionals[0];
  const root = toPosixAbsolute(given);
  const fs = new NodeFs();
  const st = await fs.stat(root);
  if (!st) {
    process.stderr.write(`harbor-runs inspect: cannot read ${given}: no such file or folder\n`);
    return 1;
  }
  try {
    accessSync(root, constants.R_OK | (st.type === 'dir' ? constants.X_OK : 0));
  } catch (e) {
    process.stderr.write(`harbor-runs inspect: cannot read ${given}: ${(e as Error).message}\n`);
    return 1;
  }
  const maxFolders = args.values.get('max-folders')?.at(-1);
  if (maxFolders !== undefined && !/^[1-9]\d*$/.test(maxFolders)) {
    process.stderr.write(`harbor-runs inspect: --max-folders takes a positive whole number, not ${safeLine(maxFolders)}\n${USAGE}`);
    return 2;
  }
  const report = emptyDiscoveryReport();
  const runs = await loadRuns(fs, [root], {
    include: args.values.get('include') ?? [],
    exclude: args.values.get('exclude') ?? [],
    report,
    ...(maxFolders ? { maxDirs: Number(maxFolders) } : {}),
  });
  // What discovery did not look at is said on stderr (stdout stays the runs): links it did not follow, its cap.
  for (const l of report.links) process.stderr.write(`harbor-runs inspect: ${safeLine(describeLink(root, l))}\n`);
  if (report.capped) process.stderr.write(`harbor-runs inspect: ${describeCap(report.capped)} (--max-folders N raises the cap)\n`);
  if (!runs.length) {
    const hint = await hintFor(fs, root, st.type === 'dir');
    if (hint) process.stderr.write(`harbor-runs inspect: ${safeLine(hint)}\n`);
  }
  const doc = inspectDocument(root, runs);
  if (args.flags.has('json')) {
    await writeJson(process.stdout, doc);
  } else {
    const base = st.type === 'dir' ? root : nodePath.posix.dirname(root);
    process.stdout.write(renderText(doc, base, { all: args.flags.has('all') }));
  }
  return 0;
}
