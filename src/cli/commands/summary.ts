// `harbor-runs summary <rollouts.jsonl> [--split S] [--before-dispatch FILE] [--target T] [--agent A] [--taskset TS]
//   [--unvalidated TASK[=REASON]]... [--skipped TASK=REASON]...`: writes `<stem>_run_summary.json` with exactly the
// bytes the VS Code command writes (writeRunSummary → serializeSummary). Exit 0 written, 1 could not write, 2 usage.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { NodeFs } from '../../core/fs/nodeFs';
import { parseSignatures, writeRunSummary, type OutputSignatures, type RemovableFs } from '../../core/summary';
import type { Problem } from '../../core/model';
import { parseArgs, UsageError } from '../args';

const USAGE = 'usage: harbor-runs summary <rollouts.jsonl> [--split validation] [--before-dispatch FILE] [--target T] [--agent A]'
  + ' [--taskset TS] [--unvalidated TASK[=REASON]]... [--skipped TASK=REASON]...\n';

/** NodeFs can remove files, so a write can clean up the temp files of writers that were killed. */
export const NodeFsWithRemove: new () => RemovableFs = NodeFs;

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

export function formatProblem(p: Problem): string {
  return `${p.severity}: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}

export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { flags: ['quiet'], values: ['split', 'before-dispatch', 'target', 'agent', 'taskset', 'unvalidated', 'skipped'] });
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'give exactly one rollouts file' : 'the rollouts file is missing');
    for (const k of ['split', 'before-dispatch', 'target', 'agent', 'taskset']) {
      if ((args.values.get(k)?.length ?? 0) > 1) throw new UsageError(`--${k} is given more than once`);
    }
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
  let beforeDispatch: OutputSignatures | null | undefined;
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
  const res = await writeRunSummary(new NodeFsWithRemove(), rollouts, {
    split: one('split'), beforeDispatch, unvalidated, skipped, identity,
  });
  if (!args.flags.has('quiet')) {
    for (const p of res.problems) if (p.severity !== 'info') process.stderr.write(`${formatProblem(p)}\n`);
  }
  if (res.error || !res.document) {
    process.stderr.write(`harbor-runs summary: ${res.error ?? 'nothing written'}\n`);
    return 1;
  }
  const d = res.document;
  const attempts = d.tasks.reduce((n, t) => n + t.repeats.filter((r) => r.outcome !== 'missing').length, 0);
  process.stdout.write(`${res.path}\n`);
  if (!args.flags.has('quiet')) {
    process.stderr.write(`wrote ${res.path}: ${d.tasks.length} tasks, ${attempts} attempts, ${d.missing_paths.length} missing paths`
      + `${Object.keys(d.stale_files).length ? `, stale: ${Object.keys(d.stale_files).join(', ')}` : ''}\n`);
  }
  return 0;
}
