// `harbor-runs compare <runA> <runB> [...] [--merge] [--all] [--json] [--k K]`: the runs found under each path, side
// by side task by task (docs/compare.md): totals and pass@k per run with the difference from the first, then the
// tasks that regressed, improved, are missing from a run or could not be compared. A run with several cells
// (agent|model, model|harness) is one side per cell; --merge makes runs of the same kind, dataset, agent and model
// one side. Exit 0 when compared, 1 when a path is unreadable or holds no run, 2 on usage errors (or fewer than
// two sides).
import * as nodePath from 'node:path';
import { parseArgs, UsageError } from '../args';
import { NodeFs } from '../../core/fs/nodeFs';
import { loadRuns } from '../../core/load';
import { compareSides, renderCompareText, sidesOf } from '../../core/compare';
import { writeJson } from '../jsonOut';
import { plural } from '../../core/format';

/** The command's usage line (also in `harbor-runs help`). */
export const USAGE = 'usage: harbor-runs compare <run path> <run path> [...] [--merge] [--all] [--json] [--k K]\n';

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { flags: ['json', 'all', 'merge', 'help'], values: ['k'] });
  } catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`harbor-runs compare: ${e.message}\n${USAGE}`); return 2; }
    throw e;
  }
  if (args.flags.has('help')) { process.stdout.write(USAGE); return 0; }
  const kText = args.values.get('k')?.at(-1);
  const k = kText === undefined ? undefined : Number(kText);
  if (k !== undefined && !(Number.isInteger(k) && k >= 1)) {
    process.stderr.write(`harbor-runs compare: --k needs a whole number ≥ 1\n${USAGE}`);
    return 2;
  }
  if (args.positionals.length === 0) { process.stderr.write(`harbor-runs compare: missing <run path>\n${USAGE}`); return 2; }
  const fs = new NodeFs();
  const runs = [];
  for (const given of args.positionals) {
    const root = nodePath.resolve(given).split(nodePath.sep).join('/');
    if (!(await fs.stat(root))) { process.stderr.write(`harbor-runs compare: cannot read ${given}: no such file or folder\n`); return 1; }
    const found = await loadRuns(fs, [root]);
    if (!found.length) { process.stderr.write(`harbor-runs compare: no run found under ${given}\n`); return 1; }
    runs.push(...found);
  }
  const sides = sidesOf(runs, { merge: args.flags.has('merge') });
  if (sides.length < 2) {
    process.stderr.write(`harbor-runs compare: ${plural(sides.length, 'run')} found; give two or more (or a folder holding several)\n${USAGE}`);
    return 2;
  }
  const comparison = compareSides(sides, { k });
  if (args.flags.has('json')) await writeJson(process.stdout, comparison);
  else process.stdout.write(renderCompareText(comparison, { all: args.flags.has('all') }));
  return 0;
}
