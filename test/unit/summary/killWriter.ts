// Child process of the kill test: writes the run summary of the rollouts named on the command line in a loop, each
// time with a different target so consecutive documents differ, printing "ready" once loaded and "w" after each
// write. It imports only the writer and the Node FsPort (no CLI, no zod), so a process starts fast: the kill test
// spawns hundreds. Without arguments (e.g. picked up by a test runner) it does nothing.
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { writeRunSummary } from '../../../src/core/summary/write';

async function main(rollouts: string): Promise<void> {
  const fs = new NodeFs(); // NodeFs.remove: the writer cleans dead writers' temps
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const res = await writeRunSummary(fs, rollouts, { identity: { target: `iteration-${process.pid}-${i}` }, beforeDispatch: null });
    if (res.error) { process.stderr.write(`${res.error}\n`); process.exit(1); }
    process.stdout.write('w\n');
  }
}

const arg = process.argv[2];
if (arg && require.main === module) void main(arg);
