// `harbor-runs signatures <rollouts.jsonl> [--out FILE] [--resumed]`: records what sits under the run's output names now (the
// output signatures a fresh start takes before it dispatches) to the `<stem>_signatures.json` sidecar, which the
// summary writer then uses to tell an earlier run's files (unchanged since) from this run's. Exit 0 written, 1 could
// not write, 2 usage. With --resumed (taken before a resumed run) the sidecar says so, and the writer then reads
// every output as the run's own.
import * as path from 'node:path';
import { NodeFs } from '../../core/fs/nodeFs';
import { notRolloutsWhy, outputSignatures, signaturesPathFor, signaturesSidecar } from '../../core/summary';
import type { Problem } from '../../core/model';
import { parseArgs, UsageError } from '../args';

/** The command's usage line (also in `harbor-runs help`). */
export const USAGE = 'usage: harbor-runs signatures <rollouts.jsonl> [--out FILE] [--resumed]\n';

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { flags: ['resumed', 'help'], values: ['out'] });
    if (args.flags.has('help')) { process.stdout.write(USAGE); return 0; }
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'give exactly one rollouts file' : 'the rollouts file is missing');
    if ((args.values.get('out')?.length ?? 0) > 1) throw new UsageError('--out is given more than once');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`harbor-runs signatures: ${e.message}\n${USAGE}`);
    return 2;
  }
  const toPosix = (p: string) => path.resolve(p).split(path.sep).join('/');
  const rollouts = toPosix(args.positionals[0]);
  const notRollouts = notRolloutsWhy(rollouts);
  if (notRollouts) {
    process.stderr.write(`harbor-runs signatures: ${notRollouts}; nothing recorded\n${USAGE}`);
    return 2;
  }
  const out = args.values.get('out')?.[0] !== undefined ? toPosix(args.values.get('out')![0]) : signaturesPathFor(rollouts);
  const fs = new NodeFs();
  try {
    const problems: Problem[] = [];
    const sigs = await outputSignatures(fs, rollouts, problems);
    for (const p of problems) process.stderr.write(`harbor-runs signatures: warning: ${p.message}\n`);
    const doc = signaturesSidecar(rollouts, sigs, Date.now(), args.flags.has('resumed'));
    await fs.writeFileAtomic(out, new TextEncoder().encode(`${JSON.stringify(doc, null, 2)}\n`));
    process.stdout.write(`${out}\n`);
    const present = Object.entries(sigs).filter(([, s]) => s).map(([k]) => k);
    process.stderr.write(`recorded ${out}: ${present.length ? present.join(', ') : 'no output file yet'}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`harbor-runs signatures: cannot write ${out}: ${(e as Error).message}\n`);
    return 1;
  }
}
