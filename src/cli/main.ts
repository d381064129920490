// The `harbor-runs` CLI: one small dispatcher; each sub-command lives in commands/<name>.ts and exports `run(argv)`.
// Exit codes: 0 when it could read (problems in the data are reported, not fatal), 2 on usage errors,
// 1 when a path cannot be read at all.
import { commands } from './commands';
import { USAGE as inspect } from './commands/inspect';
import { USAGE as summary } from './commands/summary';
import { USAGE as signatures } from './commands/signatures';
import { USAGE as trajectory } from './commands/trajectory';
import { USAGE as compare } from './commands/compare';

const line = (usage: string) => `  ${usage.replace(/^usage: /, '').trimEnd()}\n`;

/** `harbor-runs help`: every command's own usage line (the one its --help and its usage errors print). */
export const USAGE = `harbor-runs — inspect Harbor runs (NeMo Gym run summaries, Harbor job folders, viewer data dirs)

Usage:
${[inspect, summary, signatures, trajectory, compare].map(line).join('')}  harbor-runs help
  harbor-runs <command> --help
`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`harbor-runs: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  return command(rest);
}
