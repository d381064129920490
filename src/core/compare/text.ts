// What `harbor-runs compare` prints: the sides (A, B, …; A is the baseline), a table of totals per side with the
// difference from A over the tasks every side has, then the tasks that regressed, improved, are missing from a side
// or could not be compared (a side measured nothing), each list capped unless `all`; unchanged tasks are counted.
import { formatReward, RUN_KIND_LABELS, plural } from '../format';
import { formatDuration } from '../trajectory/document';
import { safeLine } from '../terminalText';
import type { RunComparison, TaskCell, TaskChange, TaskRow } from './runs';

export interface CompareTextOptions {
  all?: boolean;
  /** Tasks listed per group before "… N more" (default 20). */
  maxTasks?: number;
}

export const sideLetter = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : `S${i + 1}`);

const num = (v: number | null, digits = 3) => (v === null ? '—' : v.toFixed(digits));
const signed = (v: number | null) => (v === null ? '' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(3)}`);

function count(v: number | null): string {
  if (v === null) return '—';
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (v >= 1e4) return `${(v / 1e3).toFixed(1)}k`;
  return String(v);
}

/** One task on one side, briefly: "passed · 1.0", "passed · 2/3 pass · 0.667", "infra-error · 2 not measured · —", "— (absent)". */
export function cellText(c: TaskCell | null): string {
  if (!c) return '— (absent)';
  const parts: string[] = [c.outcome];
  if (c.measured && (c.attempts > 1 || c.measured !== c.attempts)) parts.push(`${c.passed}/${c.measured} pass`);
  if (c.measured !== c.attempts) parts.push(`${c.attempts - c.measured} not measured`);
  parts.push(formatReward(c.meanReward));
  return parts.join(' · ');
}

const GROUPS: [TaskChange, string][] = [
  ['regressed', 'Regressed'], ['improved', 'Improved'], ['only-in-some', 'Not in every run'], ['not-comparable', 'Not comparable (a run measured nothing)'],
];

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => `  ${r.map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join('  ')}`.trimEnd());
}

export function renderCompareText(c: RunComparison, opts: CompareTextOptions = {}): string {
  const out: string[] = [];
  const n = c.sides.length;
  out.push(`Comparing ${plural(n, 'run')} (A is the baseline; differences over the ${plural(c.commonTasks, 'task')} every run has; pass@k at k=${c.k})`);
  if (c.mergeNote) out.push(safeLine(c.mergeNote));
  out.push('');
  c.sides.forEach((s, i) => {
    out.push(`${sideLetter(i)}  ${safeLine(s.label)}  (${RUN_KIND_LABELS[s.kind]})`);
    if (s.mergedFrom.length > 1) out.push(`   merged from: ${s.mergedFrom.map(safeLine).join(', ')}`);
  });
  out.push('');
  const head = ['', ...c.sides.map((_, i) => sideLetter(i))];
  const diffs = (pick: (d: NonNullable<RunComparison['sides'][number]['diff']>) => number | null) => c.sides.slice(1).map((s) => signed(s.diff ? pick(s.diff) : null));
  const rows: string[][] = [
    [...head, ...c.sides.slice(1).map((_, i) => `${sideLetter(i + 1)}−A`)],
    ['tasks', ...c.sides.map((s) => String(s.all.tasks))],
    ['attempts', ...c.sides.map((s) => String(s.all.attempts))],
    ['passed / measured', ...c.sides.map((s) => `${s.all.passed}/${s.all.measured}`)],
    ['all not measured', ...c.sides.map((s) => String(s.all.allInfra))],
    ['pass@1 (common)', ...c.sides.map((s) => num(s.common.passAt1)), ...diffs((d) => d.passAt1)],
    ...(c.k > 1 ? [[`pass@${c.k} (common)`, ...c.sides.map((s) => num(s.common.passAtK)), ...diffs((d) => d.passAtK)]] : []),
    ['mean reward (common)', ...c.sides.map((s) => num(s.common.meanReward)), ...diffs((d) => d.meanReward)],
    ['pass@1 (all tasks)', ...c.sides.map((s) => num(s.all.passAt1))],
    ['input tokens', ...c.sides.map((s) => count(s.usage.inputTokens))],
    ['output tokens', ...c.sides.map((s) => count(s.usage.outputTokens))],
    ['cost', ...c.sides.map((s) => (s.usage.costUsd === null ? '—' : `$${s.usage.costUsd.toFixed(2)}`))],
    ['agent time (sum)', ...c.sides.map((s) => formatDuration(s.usage.durationSec === null ? null : s.usage.durationSec * 1000))],
  ];
  out.push(...table(rows));
  const max = opts.all ? Infinity : opts.maxTasks ?? 20;
  const taskLine = (t: TaskRow) => `  ${safeLine(t.label)}  ${t.cells.map((cell, i) => `${sideLetter(i)}: ${cellText(cell)}`).join('  →  ')}`;
  for (const [change, title] of GROUPS) {
    const list = c.tasks.filter((t) => t.change === change);
    if (!list.length) continue;
    out.push('', `${title} (${list.length}):`);
    for (const t of list.slice(0, max)) out.push(taskLine(t));
    if (list.length > max) out.push(`  … ${list.length - max} more (--all lists every task)`);
  }
  const same = c.tasks.filter((t) => t.change === 'unchanged');
  if (opts.all && same.length) {
    out.push('', `Unchanged (${same.length}):`);
    for (const t of same) out.push(taskLine(t));
  } else {
    out.push('', `Unchanged: ${plural(same.length, 'task')}`);
  }
  return `${out.join('\n')}\n`;
}
