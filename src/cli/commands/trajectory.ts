// `harbor-runs trajectory <file> [--json]`: what the trajectory viewer would show — header, recount against
// final_metrics, continuations, subagents, the step list and every problem (docs/trajectory-json.md).
// Exit 0 when read as ATIF (problems in the data are reported), 1 when unreadable or not ATIF, 2 on usage errors.
import * as nodePath from 'node:path';
import { parseArgs, UsageError } from '../args';
import { NodeFs } from '../../core/fs/nodeFs';
import { loadTrajectory, renderTrajectoryText, trajectoryDocument } from '../../core/trajectory';
import { safeJson, safeLine } from '../../core/terminalText';

/** The command's usage line (also in `harbor-runs help`). */
export const USAGE = 'usage: harbor-runs trajectory <trajectory.json> [--json]\n';

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { flags: ['json', 'help'] });
  } catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`harbor-runs trajectory: ${e.message}\n${USAGE}`); return 2; }
    throw e;
  }
  if (args.flags.has('help')) { process.stdout.write(USAGE); return 0; }
  if (args.positionals.length !== 1) {
    process.stderr.write(`harbor-runs trajectory: ${args.positionals.length ? 'give one file' : 'missing <trajectory.json>'}\n${USAGE}`);
    return 2;
  }
  const file = nodePath.resolve(args.positionals[0]).split(nodePath.sep).join('/');
  const view = await loadTrajectory(new NodeFs(), file);
  // What the trajectory supplied reaches the terminal escaped, as inspect's (docs/untrusted-runs.md#terminal-output).
  if (args.flags.has('json')) process.stdout.write(`${safeJson(JSON.stringify(trajectoryDocument(view), null, 2))}\n`);
  else process.stdout.write(renderTrajectoryText(view));
  const named = args.positionals[0];
  if (view.unreadable) { process.stderr.write(`harbor-runs trajectory: ${safeLine(`cannot read ${named}: ${view.unreadable}`)}\n`); return 1; }
  if (view.notAtif) { process.stderr.write(`harbor-runs trajectory: ${safeLine(`${named} is not ATIF (${view.notAtif.looksLike})`)}\n`); return 1; }
  return 0;
}
