// What `harbor-runs inspect` prints as text: per run its identity, counts by outcome, pass@k, then what a person acts
// on: the tasks that need attention (an attempt that did not pass), missing paths and problems, each list capped.
// `all` lists every task and attempt instead. A task with many attempts is summarised as ranges
// (`#1–#1000: 812 passed, 188 failed`) with its attempts that did not pass listed after; lines are wrapped.
import * as path from 'node:path';
import { formatReward, plural } from './format';
import { OUTCOMES, type Attempt, type Outcome, type Problem, type Task } from './model';
import type { InspectDocument, InspectedRun } from './report';
import { safeLine } from './terminalText';

export interface TextOptions {
  /** Every task and every attempt (default: the tasks that need attention, capped at maxTasks). */
  all?: boolean;
  /** Tasks listed per run before "… N more" (default 20; with `all` no cap). */
  maxTasks?: number;
  /** Problems and missing paths listed per run (default 20; with `all` 200). */
  maxProblems?: number;
  /** Attempts shown one by one on a task's line before the task is summarised as ranges (default 8). */
  maxInline?: number;
  /** Line width for wrapping attempt lists (default 120). */
  width?: number;
}

function relFrom(base: string, p: string): string {
  const r = path.posix.relative(base, p);
  return r === '' ? '.' : r;
}

function fmtValue(v: number | null): string {
  return v === null ? '—' : v.toFixed(3);
}

function fmtReward(r: number | null): string {
  return r === null ? 'no reward' : `reward ${formatReward(r)}`;
}

export function attemptText(base: string, a: Attempt): string {
  const why: string[] = [];
  const rowWord: Record<string, string> = { failed: 'failure row', masked: 'masked row', missing: 'no row' };
  if (a.sourceOutcome && a.sourceOutcome !== 'scored') why.push(rowWord[a.sourceOutcome] ?? a.sourceOutcome);
  if (a.exception) why.push(a.exception.type);
  if (a.failure?.class) why.push(a.failure.class + (a.failure.stage ? ` at ${a.failure.stage}` : ''));
  if (a.failure?.kind) why.push(a.failure.kind);
  if (!why.length && a.failure?.reason && a.outcome !== 'passed' && a.outcome !== 'failed') why.push(a.failure.reason.split('\n')[0].slice(0, 80));
  let s = `${a.label} ${a.outcome} (${fmtReward(a.reward)}${why.length ? `; ${why.join('; ')}` : ''})`;
  if (a.missing.length) s += ` [missing: ${a.missing.map((m) => relFrom(base, m)).join(', ')}]`;
  if (a.health && a.health.verdict !== 'healthy') s += ` [${a.health.verdict}${a.health.checks.length ? `: ${a.health.checks.slice(0, 3).join(', ')}` : ''}]`;
  return s;
}

function problemText(base: string, p: Problem): string {
  const where = `${relFrom(base, p.file)}${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}`;
  return `${p.severity.padEnd(7)} ${where}  ${p.code}: ${p.message}`;
}

/** "812 passed, 188 failed" in outcome order. */
function countText(attempts: readonly Attempt[]): string {
  const n = new Map<Outcome, number>();
  for (const a of attempts) n.set(a.outcome, (n.get(a.outcome) ?? 0) + 1);
  return OUTCOMES.filter((o) => n.get(o)).map((o) => `${n.get(o)} ${o}`).join(', ');
}

/** Attempt labels as ranges where they run on ("#1–#1000", "#1–#4, #7"). */
function rangesOf(attempts: readonly Attempt[]): string {
  const nums = attempts.map((a) => a.index + 1);
  const out: string[] = [];
  for (let i = 0; i < nums.length;) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    out.push(j === i ? `#${nums[i]}` : `#${nums[i]}–#${nums[j]}`);
    i = j + 1;
  }
  return out.length > 4 ? `${out.slice(0, 3).join(', ')}, … ${out[out.length - 1]}` : out.join(', ');
}

/** Pieces joined with two spaces, wrapped at `width`, continuation lines indented like the first piece. */
function wrap(head: string, pieces: readonly string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = head;
  for (const p of pieces) {
    const sep = line === head || line === indent ? '' : '  ';
    if (line.length + sep.length + p.length > width && line !== head && line !== indent) {
      lines.push(line);
      line = indent + p;
    } else {
      line += sep + p;
    }
  }
  lines.push(line);
  return lines;
}

/** One group of attempts (a task, or one cell of it) after its label: inline when few, else summarised. */
function attemptLines(base: string, head: string, attempts: readonly Attempt[], o: Required<Omit<TextOptions, 'all'>> & { all: boolean }): string[] {
  const indent = ' '.repeat(head.length);
  if (!attempts.length) return [`${head}(no attempts)`];
  if (attempts.length <= o.maxInline) return wrap(head, attempts.map((a) => attemptText(base, a)), o.width, indent);
  const lines = [`${head}${rangesOf(attempts)}: ${countText(attempts)}`];
  const notable = o.all ? attempts : attempts.filter((a) => a.outcome !== 'passed');
  const shown = o.all ? notable : notable.slice(0, o.maxInline);
  if (shown.length) lines.push(...wrap(indent, shown.map((a) => attemptText(base, a)), o.width, indent));
  if (notable.length > shown.length) lines.push(`${indent}… ${notable.length - shown.length} more that did not pass (--all lists every attempt)`);
  return lines;
}

function needsAttention(t: Task): boolean {
  return t.attempts.length === 0 || t.attempts.some((a) => a.outcome !== 'passed' || a.missing.length > 0);
}

/**
 * How much a task needs attention, most first: 0 no attempt, an attempt missing or errored (infra, agent) or evidence
 * missing; 1 no attempt passed; 2 the rest (some attempt did not pass).
 */
function attentionTier(t: Task): number {
  if (t.attempts.length === 0) return 0;
  let passed = false;
  for (const a of t.attempts) {
    if (a.outcome === 'missing' || a.outcome === 'infra-error' || a.outcome === 'agent-error' || a.missing.length > 0) return 0;
    if (a.outcome === 'passed') passed = true;
  }
  return passed ? 2 : 1;
}

/**
 * The tasks that need attention. When they are more than the list shows, the most in need come first (attentionTier,
 * in run order within a tier), so a cut list of a large run shows its errors and tasks never passed, not its first
 * tasks that failed once.
 */
function attentionTasks(r: InspectedRun, max: number): { tasks: readonly Task[]; ranked: boolean } {
  const tasks = r.tasks.filter(needsAttention);
  if (tasks.length <= max) return { tasks, ranked: false };
  const tiers = tasks.map(attentionTier);
  const order = tasks.map((_, i) => i).sort((a, b) => tiers[a] - tiers[b] || a - b);
  return { tasks: order.map((i) => tasks[i]), ranked: true };
}

function taskLines(base: string, r: InspectedRun, o: Required<Omit<TextOptions, 'all'>> & { all: boolean }): string[] {
  const { tasks, ranked } = o.all ? { tasks: r.tasks, ranked: false } : attentionTasks(r, o.maxTasks);
  const out: string[] = [];
  if (o.all) out.push('  tasks');
  else if (tasks.length) {
    out.push(`  attention  ${tasks.length} of ${plural(r.tasks.length, 'task')} ${tasks.length === 1 ? 'has' : 'have'} an attempt that did not pass or is missing evidence`);
    if (ranked) out.push('             most in need first: errors and missing evidence, then tasks never passed, then the rest');
  } else if (r.tasks.length) {
    out.push(`  attention  none: every attempt of ${plural(r.tasks.length, 'task')} passed`);
  }
  const cells = new Set(r.tasks.flatMap((t) => t.attempts.map((a) => a.cell ?? '')));
  const width = Math.min(32, tasks.reduce((m, t) => Math.max(m, t.label.length), 0));
  const shown = o.all ? tasks : tasks.slice(0, o.maxTasks);
  for (const t of shown) {
    if (cells.size <= 1) {
      out.push(...attemptLines(base, `    ${t.label.padEnd(width)}  `, t.attempts, o));
      continue;
    }
    // Several cells (viewer model|harness, Harbor agent|model): one line per cell under the task.
    out.push(`    ${t.label}${t.attempts.length ? '' : '  (no attempts)'}`);
    const byCell = new Map<string, Attempt[]>();
    for (const a of t.attempts) {
      const list = byCell.get(a.cell ?? '');
      if (list) list.push(a);
      else byCell.set(a.cell ?? '', [a]);
    }
    for (const [cell, list] of byCell) out.push(...attemptLines(base, `      ${cell || '(no cell)'}  `, list, o));
  }
  if (tasks.length > shown.length) out.push(`    … ${plural(tasks.length - shown.length, 'more task', 'more tasks')} (--all lists every task and attempt)`);
  return out;
}

export function renderRunText(base: string, r: InspectedRun, opts: TextOptions = {}): string {
  const all = !!opts.all;
  const o = {
    all, maxTasks: opts.maxTasks ?? 20, maxProblems: opts.maxProblems ?? (all ? 200 : 20),
    maxInline: opts.maxInline ?? 8, width: opts.width ?? 120,
  };
  const out: string[] = [];
  out.push(`${r.kind}: ${r.label}`);
  out.push(`  at         ${relFrom(base, r.anchor)}${r.summaryIsVirtual ? ' (no run summary yet: read from the rollouts)' : ''}`);
  const ids = Object.entries(r.identity).filter(([, v]) => v !== null && v !== '');
  if (ids.length) out.push(`  identity   ${ids.map(([k, v]) => `${k}=${v}`).join('  ')}`);
  out.push(`  state      ${r.state}`);
  if (r.training) {
    const last = r.training.last ? Object.entries(r.training.last).filter(([k]) => k !== 'step').slice(0, 6).map(([k, v]) => `${k}=${v}`).join(' ') : '';
    out.push(`  training   ${plural(r.training.steps, 'step')}${last ? `; last: ${last}` : ''}`);
  }
  const c = r.counts;
  const byOutcome = OUTCOMES.filter((x) => c.byOutcome[x] > 0).map((x) => `${x} ${c.byOutcome[x]}`).join(', ');
  if (c.total || r.tasks.length) out.push(`  attempts   ${c.total} in ${plural(r.tasks.length, 'task')}${byOutcome ? `: ${byOutcome}` : ''}`);
  for (const e of r.passAtK) {
    out.push(`  pass@${String(e.k).padEnd(6)}${fmtValue(e.value)} over ${e.nMeasured} measured of ${e.nTasks}${e.nAllInfra ? ` (${e.nAllInfra} all-infra: no attempt measured)` : ' (0 all-infra)'}`);
  }
  if (r.tasks.length) out.push(...taskLines(base, r, o));
  for (const s of r.skipped) out.push(`  skipped    ${s.taskId}${s.reason ? `: ${s.reason}` : ''}`);
  for (const s of r.unvalidated) out.push(`  unvalidated ${s.taskId}${s.reason ? `: ${s.reason}` : ''}`);
  const missing: string[] = [];
  // A file outside the run was never looked at (docs/untrusted-runs.md): not missing; its outside-run problem says so.
  for (const f of r.files) if (f.path && !f.present && !f.stale && !f.outside) missing.push(`${relFrom(base, f.path)} (${f.label.toLowerCase()})`);
  for (const t of r.tasks) for (const a of t.attempts) for (const m of a.missing) missing.push(`${relFrom(base, m)} (${t.label} ${a.label}${a.cell ? ` ${a.cell}` : ''})`);
  for (const m of missing.slice(0, o.maxProblems)) out.push(`  missing    ${m}`);
  if (missing.length > o.maxProblems) out.push(`  missing    … ${missing.length - o.maxProblems} more (--json lists every one)`);
  for (const f of r.files) {
    if (f.stale && f.path) out.push(`  stale      ${relFrom(base, f.path)} (${f.key}: left by an earlier run${f.outside ? '; outside the run: not read' : f.present ? '' : '; no longer on disk'})`);
  }
  if (r.problems.length) {
    const byCode = new Map<string, number>();
    for (const p of r.problems) byCode.set(p.code, (byCode.get(p.code) ?? 0) + 1);
    const codes = [...byCode].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join(', ');
    out.push(`  problems   ${r.problems.length}${byCode.size > 1 || r.problems.length > o.maxProblems ? `: ${codes}` : ''}`);
    for (const p of r.problems.slice(0, o.maxProblems)) out.push(`    ${problemText(base, p)}`);
    if (r.problems.length > o.maxProblems) out.push(`    … ${r.problems.length - o.maxProblems} more (--json lists every one)`);
  }
  // Each entry is one line by construction; what the run supplied (ids, messages, paths) cannot act on the terminal.
  return out.map(safeLine).join('\n');
}

export function renderText(doc: InspectDocument, base: string, opts: TextOptions = {}): string {
  if (!doc.runs.length) return `No runs found under ${safeLine(doc.root)}\n`;
  const head = safeLine(`${plural(doc.runs.length, 'run')} under ${doc.root}`);
  return `${head}\n\n${doc.runs.map((r) => renderRunText(base, r, opts)).join('\n\n')}\n`;
}
