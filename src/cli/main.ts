// The `harbor-runs` CLI: one small dispatcher; each sub-command lives in commands/<name>.ts and exports `run(argv)`.
// Exit codes: 0 when it could read (problems in the data are reported, not fatal), 2 on usage errors,
// 1 when a path cannot be read at all.
import { commands } from './commands';

export const USAGE = `harbor-runs — inspect Harbor runs (NeMo Gym run summaries, Harbor job folders, viewer data dirs)

Usage:
  harbor-runs inspect <path> [--all] [--json] [--include GLOB]... [--exclude GLOB]... [--max-folders N]
  harbor-runs summary <rollouts.jsonl> [--split validation] [--before-dispatch FILE] [--target T] [--agent A]
  harbor-runs signatures <rollouts.jsonl> [--out FILE]
  harbor-runs trajectory <trajectory.json> [--json]
  harbor-runs compare <run path> <run path> [...] [--merge] [--all] [--json] [--k K]
  harbor-runs help
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
