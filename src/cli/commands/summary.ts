// `harbor-runs summary <rollouts.jsonl> [--split S] [--before-dispatch FILE | --resumed] [--target T] [--agent A]
//   [--taskset TS] [--num-repeats N] [--run-config FILE] [--unvalidated TASK[=REASON]]... [--skipped TASK=REASON]...`: writes `<stem>_run_summary.json` with exactly the
// bytes the VS Code command writes (writeRunSummary → serializeSummary). Exit 0 written, 1 could not write, 2 usage,
// 130 / 143 cancelled by SIGINT / SIGTERM (nothing written).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { NodeFs } from '../../core/fs/nodeFs';
import { notRolloutsWhy, parseSignatures, writeRunSummary, type OutputSignatures } from '../../core/summary';
import type { Problem } from '../../core/model';
import { parseArgs, UsageError } from '../args';
import { plural } from '../../core/format';

/** The command's usage line (also in `harbor-runs help`). */
export const USAGE = 'usage: harbor-runs summary <rollouts.jsonl> [--split validation] [--before-dispatch FILE | --resumed] [--target T] [--agent A]'
  + ' [--taskset TS] [--num-repeats N] [--run-config FILE] [--unvalidated TASK[=REASON]]... [--skipped TASK=REASON]...\n';

function reasons(list: string[] | undefined, defaultReason: string | undefined, flag: string): Record<string, string> | undefined {
  if (!list) return undefined;
  const out: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    const id = eq >= 0 ? item.slice(0, eq) : item;
    const reason = eq >= 0 ? item.slice(eq + 1) : defaultReason;
    if (!id || reason === undefined) throw new UsageError(`--${flag} needs TASK=REASON`);
    out[id] = reason;
  }
  return out;
}

/** The signals that cancel a write, and the exit status a shell gives a process they end (128 + the number). */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** Info problems the CLI prints too: they say how the run was read. */
const SAID = new Set(['run-config-located', 'resumed']);

export function formatProblem(p: Problem): string {
  return `${p.severity}: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { flags: ['quiet', 'resumed', 'help'], values: ['split', 'before-dispatch', 'target', 'agent', 'taskset', 'num-repeats', 'run-config', 'unvalidated', 'skipped'] });
    if (args.flags.has('help')) { process.stdout.write(USAGE); return 0; }
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'give exactly one rollouts file' : 'the rollouts file is missing');
    for (const k of ['split', 'before-dispatch', 'target', 'agent', 'taskset', 'num-repeats', 'run-config']) {
      if ((args.values.get(k)?.length ?? 0) > 1) throw new UsageError(`--${k} is given more than once`);
    }
    if (args.flags.has('resumed') && args.values.has('before-dispatch')) throw new UsageError('--resumed and --before-dispatch exclude each other');
    const nr = args.values.get('num-repeats')?.[0];
    if (nr !== undefined && !/^[1-9]\d*$/.test(nr)) throw new UsageError('--num-repeats needs a positive whole number');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`harbor-runs summary: ${e.message}\n${USAGE}`);
    return 2;
  }
  const one = (k: string) => args.values.get(k)?.[0];
  let unvalidated: Record<string, string> | undefined;
  let skipped: Record<string, string> | undefined;
  try {
    unvalidated = reasons(args.values.get('unvalidated'), 'NO_REFERENCE_SOLUTION', 'unvalidated');
    skipped = reasons(args.values.get('skipped'), undefined, 'skipped');
  } catch (e) {
    process.stderr.write(`harbor-runs summary: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const rollouts = path.resolve(args.positionals[0]).split(path.sep).join('/');
  // A sidecar or a stem without .jsonl would be written a summary of its own (a run that is not one, or this run with
  // every scored repeat missing, over the good summary): refused before anything is read or written.
  const notRollouts = notRolloutsWhy(rollouts);
  if (notRollouts) {
    process.stderr.write(`harbor-runs summary: ${notRollouts}; nothing written\n${USAGE}`);
    return 2;
  }
  // --resumed: a resumed run's cached rows are its own, whatever signatures sidecar an earlier fresh start left.
  let beforeDispatch: OutputSignatures | null | undefined = args.flags.has('resumed') ? null : undefined;
  const bd = one('before-dispatch');
  if (bd !== undefined) {
    let text: string;
    try { text = await fsp.readFile(path.resolve(bd), 'utf8'); } catch (e) {
      process.stderr.write(`harbor-runs summary: cannot read --before-dispatch ${bd}: ${(e as Error).message}\n`);
      return 2;
    }
    const problems: Problem[] = [];
    beforeDispatch = parseSignatures(text, bd, problems);
    if (!beforeDispatch) {
      process.stderr.write(`harbor-runs summary: --before-dispatch ${bd}: ${problems.map((p) => p.message).join('; ')}\n`);
      return 2;
    }
  }
  const identity: { target?: string; agent?: string; taskset?: string } = {};
  if (one('target') !== undefined) identity.target = one('target');
  if (one('agent') !== undefined) identity.agent = one('agent');
  if (one('taskset') !== undefined) identity.taskset = one('taskset');
  const numRepeats = one('num-repeats') !== undefined ? Number(one('num-repeats')) : undefined;
  const runConfig = one('run-config') !== undefined ? path.resolve(one('run-config')!).split(path.sep).join('/') : undefined;
  // Ctrl-C (or a TERM from a pipeline) cancels the write: the temp file is removed and the summary stays as it was,
  // rather than the process dying with a half-written temp file beside it. A second signal exits at once.
  const cancel = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) process.exit(SIGNAL_EXIT[sig]);
    signalled = sig;
    cancel.abort(new Error('cancelled'));
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  let res: Awaited<ReturnType<typeof writeRunSummary>>;
  try {
    res = await writeRunSummary(new NodeFs(), rollouts, {
      split: one('split'), beforeDispatch, unvalidated, skipped, identity, numRepeats, runConfig, signal: cancel.signal,
    });
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSignal);
  }
  if (signalled && res.error) {
    process.stderr.write(`harbor-runs summary: cancelled (${signalled}): nothing written, ${res.path} is as it was\n`);
    return SIGNAL_EXIT[signalled];
  }
  if (!args.flags.has('quiet')) {
    // Warnings and errors, and which run config was used and whether the run was read as resumed.
    for (const p of res.problems) if (p.severity !== 'info' || SAID.has(p.code)) process.stderr.write(`${formatProblem(p)}\n`);
  }
  if (res.error || !res.document) {
    process.stderr.write(`harbor-runs summary: ${res.error ?? 'nothing written'}\n`);
    return 1;
  }
  const d = res.document;
  const attempts = d.tasks.reduce((n, t) => n + t.repeats.filter((r) => r.outcome !== 'missing').length, 0);
  process.stdout.write(`${res.path}\n`);
  if (!args.flags.has('quiet')) {
    process.stderr.write(`wrote ${res.path}: ${plural(d.tasks.length, 'task')}, ${plural(attempts, 'attempt')}, ${plural(d.missing_paths.length, 'missing path')}`
      + `${Object.keys(d.stale_files).length ? `, stale: ${Object.keys(d.stale_files).join(', ')}` : ''}\n`);
  }
  return 0;
}
