// The `harbor-runs` executable (out/cli.js): runs main() with the process's arguments.
// Kept apart from main.ts so that tests can import main() without starting the CLI.
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => { process.stderr.write(`harbor-runs: ${(e as Error).stack ?? e}\n`); process.exitCode = 1; },
);
