// Child process of the kill test: writes the run summary of the rollouts named on the command line in a loop, each
// time with a different target so consecutive documents differ, printing "ready" once loaded and "w" after each
// write. Without arguments (e.g. picked up by a test runner) it does nothing.
import { writeRunSummary } from '../../../src/core/summary';
import { NodeFsWithRemove } from '../../../src/cli/commands/summary';

async function main(rollouts: string): Promise<void> {
  const fs = new NodeFsWithRemove();
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const res = await writeRunSummary(fs, rollouts, { identity: { target: `iteration-${process.pid}-${i}` }, beforeDispatch: null });
    if (res.error) { process.stderr.write(`${res.error}\n`); process.exit(1); }
    process.stdout.write('w\n');
  }
}

const arg = process.argv[2];
if (arg && require.main === module) void main(arg);
