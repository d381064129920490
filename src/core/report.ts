// What `harbor-runs inspect` prints: per run its counts by outcome and pass@1 / pass@k, as a JSON document
// (docs/inspect-json.md, schema 'harbor-runs/inspect@1') or as text with paths relative to the folder given.
import { formatReward } from './format';
import * as path from 'node:path';
import { OUTCOMES, countRun, type Attempt, type OutcomeCounts, type Problem, type Run } from './model';
import { passAtK } from './passAtK';

export const INSPECT_SCHEMA = 'harbor-runs/inspect@1';

export interface PassAtKEntry {
  k: number;
  /** Mean over the measured units; null when none was measured. */
  value: number | null;
  /** Units: tasks (viewer data: task × cell). */
  nTasks: number;
  nMeasured: number;
  nAllInfra: number;
}

export type InspectedRun = Run & { counts: OutcomeCounts; maxAttempts: number; passAtK: PassAtKEntry[] };

export interface InspectDocument {
  schema: typeof INSPECT_SCHEMA;
  root: string;
  runs: InspectedRun[];
}

/** The units pass@k averages over: the tasks, or for viewer data each (task, cell) pair. */
export function passAtKUnits(run: Run): { rewards: (number | null)[] }[] {
  const units = new Map<string, (number | null)[]>();
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      const key = `${t.id}\u0000${a.cell ?? ''}`;
      let list = units.get(key);
      if (!list) units.set(key, (list = []));
      list.push(a.reward ?? null);
    }
  }
  return [...units.values()].map((rewards) => ({ rewards }));
}

/** pass@1 and pass@k with k = the most attempts any unit has (one entry when that is 1; none without attempts). */
export function runPassAtK(run: Run): { maxAttempts: number; entries: PassAtKEntry[] } {
  const units = passAtKUnits(run);
  const maxAttempts = units.reduce((m, u) => Math.max(m, u.rewards.length), 0);
  const ks = maxAttempts === 0 ? [] : maxAttempts === 1 ? [1] : [1, maxAttempts];
  return { maxAttempts, entries: ks.map((k) => ({ k, ...passAtK(units, k) })) };
}

export function inspectRun(run: Run): InspectedRun {
  const { maxAttempts, entries } = runPassAtK(run);
  return { ...run, counts: countRun(run), maxAttempts, passAtK: entries };
}

export function inspectDocument(root: string, runs: readonly Run[]): InspectDocument {
  return { schema: INSPECT_SCHEMA, root, runs: runs.map(inspectRun) };
}

// ------------------------------------------------------------------------------------------------ text

export interface TextOptions {
  /** Tasks listed per run before "… N more" (default 100). */
  maxTasks?: number;
  /** Problems listed per run (default 50). */
  maxProblems?: number;
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

function attemptText(base: string, a: Attempt): string {
  const bits: string[] = [a.outcome];
  const why: string[] = [];
  const rowWord: Record<string, string> = { failed: 'failure row', masked: 'masked row', missing: 'no row' };
  if (a.sourceOutcome && a.sourceOutcome !== 'scored') why.push(rowWord[a.sourceOutcome] ?? a.sourceOutcome);
  if (a.exception) why.push(a.exception.type);
  if (a.failure?.class) why.push(a.failure.class + (a.failure.stage ? ` at ${a.failure.stage}` : ''));
  if (a.failure?.kind) why.push(a.failure.kind);
  if (!why.length && a.failure?.reason && a.outcome !== 'passed' && a.outcome !== 'failed') why.push(a.failure.reason.split('\n')[0].slice(0, 80));
  let s = `${a.label} ${bits.join(' ')} (${fmtReward(a.reward)}${why.length ? `; ${why.join('; ')}` : ''})`;
  if (a.missing.length) s += ` [missing: ${a.missing.map((m) => relFrom(base, m)).join(', ')}]`;
  if (a.health && a.health.verdict !== 'healthy') s += ` [${a.health.verdict}${a.health.checks.length ? `: ${a.health.checks.slice(0, 3).join(', ')}` : ''}]`;
  return s;
}

function problemText(base: string, p: Problem): string {
  const where = `${relFrom(base, p.file)}${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}`;
  return `${p.severity.padEnd(7)} ${where}  ${p.code}: ${p.message}`;
}

export function renderRunText(base: string, r: InspectedRun, opts: TextOptions = {}): string {
  const maxTasks = opts.maxTasks ?? 100;
  const maxProblems = opts.maxProblems ?? 50;
  const out: string[] = [];
  out.push(`${r.kind}: ${r.label}`);
  out.push(`  at         ${relFrom(base, r.anchor)}${r.summaryIsVirtual ? ' (no run summary yet: read from the rollouts)' : ''}`);
  const ids = Object.entries(r.identity).filter(([, v]) => v !== null && v !== '');
  if (ids.length) out.push(`  identity   ${ids.map(([k, v]) => `${k}=${v}`).join('  ')}`);
  out.push(`  state      ${r.state}`);
  if (r.training) {
    const last = r.training.last ? Object.entries(r.training.last).filter(([k]) => k !== 'step').slice(0, 6).map(([k, v]) => `${k}=${v}`).join(' ') : '';
    out.push(`  training   ${r.training.steps} steps${last ? `; last: ${last}` : ''}`);
  }
  const c = r.counts;
  const byOutcome = OUTCOMES.filter((o) => c.byOutcome[o] > 0).map((o) => `${o} ${c.byOutcome[o]}`).join(', ');
  if (c.total || r.tasks.length) out.push(`  attempts   ${c.total} in ${r.tasks.length} tasks${byOutcome ? `: ${byOutcome}` : ''}`);
  for (const e of r.passAtK) {
    out.push(`  pass@${String(e.k).padEnd(6)}${fmtValue(e.value)} over ${e.nMeasured} measured of ${e.nTasks}${e.nAllInfra ? ` (${e.nAllInfra} all-infra: no attempt measured)` : ' (0 all-infra)'}`);
  }
  if (r.tasks.length) {
    out.push('  tasks');
    const cells = new Set(r.tasks.flatMap((t) => t.attempts.map((a) => a.cell ?? '')));
    const width = Math.min(32, r.tasks.reduce((m, t) => Math.max(m, t.label.length), 0));
    for (const t of r.tasks.slice(0, maxTasks)) {
      if (cells.size <= 1) {
        out.push(`    ${t.label.padEnd(width)}  ${t.attempts.map((a) => attemptText(base, a)).join('  ') || '(no attempts)'}`);
        continue;
      }
      // Several cells (viewer model|harness, Harbor agent|model): one line per cell under the task.
      out.push(`    ${t.label}${t.attempts.length ? '' : '  (no attempts)'}`);
      const byCell = new Map<string, Attempt[]>();
      for (const a of t.attempts) byCell.set(a.cell ?? '', [...(byCell.get(a.cell ?? '') ?? []), a]);
      for (const [cell, list] of byCell) out.push(`      ${cell || '(no cell)'}  ${list.map((a) => attemptText(base, a)).join('  ')}`);
    }
    if (r.tasks.length > maxTasks) out.push(`    … ${r.tasks.length - maxTasks} more tasks (--json lists every one)`);
  }
  for (const s of r.skipped) out.push(`  skipped    ${s.taskId}${s.reason ? `: ${s.reason}` : ''}`);
  for (const s of r.unvalidated) out.push(`  unvalidated ${s.taskId}${s.reason ? `: ${s.reason}` : ''}`);
  const missing: string[] = [];
  for (const f of r.files) if (f.path && !f.present && !f.stale) missing.push(`${relFrom(base, f.path)} (${f.label.toLowerCase()})`);
  for (const t of r.tasks) for (const a of t.attempts) for (const m of a.missing) missing.push(`${relFrom(base, m)} (${t.label} ${a.label}${a.cell ? ` ${a.cell}` : ''})`);
  for (const m of missing) out.push(`  missing    ${m}`);
  for (const f of r.files) if (f.stale && f.path) out.push(`  stale      ${relFrom(base, f.path)} (${f.key}: left by an earlier run${f.present ? '' : '; no longer on disk'})`);
  if (r.problems.length) {
    out.push(`  problems   ${r.problems.length}`);
    for (const p of r.problems.slice(0, maxProblems)) out.push(`    ${problemText(base, p)}`);
    if (r.problems.length > maxProblems) out.push(`    … ${r.problems.length - maxProblems} more (--json lists every one)`);
  }
  return out.join('\n');
}

export function renderText(doc: InspectDocument, base: string, opts: TextOptions = {}): string {
  if (!doc.runs.length) return `No runs found under ${doc.root}\n`;
  const head = `${doc.runs.length} run${doc.runs.length === 1 ? '' : 's'} under ${doc.root}`;
  return `${head}\n\n${doc.runs.map((r) => renderRunText(base, r, opts)).join('\n\n')}\n`;
}
