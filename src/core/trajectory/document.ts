// What `harbor-runs trajectory <file> --json` prints (docs/trajectory-json.md) and its text form: the same view
// model the viewer shows, as a plain JSON document.
import type { Totals, TrajectoryView } from './types';
import { safeLine } from '../terminalText';
import { plural } from '../format';

export interface SubagentDoc {
  kind: string;
  ref: string;
  path: string | null;
  step: number | null;
  agent: string | null;
  steps: number;
  totals: Totals;
  unresolved: string | null;
}

export interface TrajectoryDocument {
  file: string;
  schema_version: string | null;
  not_atif: { looks_like: string; detail: string } | null;
  unreadable: string | null;
  task_level: boolean;
  agent: { name: string | null; version: string | null; model_name: string | null; tool_definitions: number };
  session_id: string | null;
  trajectory_id: string | null;
  steps: number;
  tool_calls: number;
  paired: number;
  totals: Totals;
  totals_with_subagents: Totals;
  final_metrics: Record<string, unknown> | null;
  disagreements: TrajectoryView['disagreements'];
  continuations: { path: string; first_step: number; steps: number; folded_copies: number }[];
  subagents: SubagentDoc[];
  context_boundaries: { step: number; type: string; boundary: string }[];
  elapsed_ms: number | null;
  problems: TrajectoryView['problems'];
}

export function trajectoryDocument(v: TrajectoryView): TrajectoryDocument {
  return {
    file: v.file,
    schema_version: v.schemaVersion,
    not_atif: v.notAtif ? { looks_like: v.notAtif.looksLike, detail: v.notAtif.detail } : null,
    unreadable: v.unreadable,
    task_level: v.taskLevel,
    agent: { name: v.agent.name, version: v.agent.version, model_name: v.agent.model, tool_definitions: v.agent.toolDefinitions },
    session_id: v.sessionId,
    trajectory_id: v.trajectoryId,
    steps: v.steps.length,
    tool_calls: v.toolCalls,
    paired: v.paired,
    totals: v.totals,
    totals_with_subagents: v.totalsWithSubagents,
    final_metrics: v.finalMetrics,
    disagreements: v.disagreements,
    continuations: v.files.slice(1).map((f) => ({ path: f.path, first_step: f.firstStep, steps: f.steps, folded_copies: f.foldedCopies })),
    subagents: v.subagents.map((s) => ({ kind: s.kind, ref: s.ref, path: s.path, step: s.step, agent: s.agent, steps: s.steps, totals: s.totals, unresolved: s.unresolved })),
    context_boundaries: v.steps.filter((s) => s.contextBoundary).map((s) => ({ step: s.index, type: s.contextBoundary!.type, boundary: s.contextBoundary!.boundary })),
    elapsed_ms: v.elapsedMs,
    problems: v.problems,
  };
}

const n = (x: number | null, digits = 0) => (x === null ? '—' : digits ? x.toFixed(digits) : String(x));

/** Milliseconds as "1h 02m", "3m 04s", "5.2s"; "—" when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

function totalsLine(t: Totals): string {
  return `prompt ${n(t.prompt_tokens)} · completion ${n(t.completion_tokens)} · cached ${n(t.cached_tokens)} · cost ${t.cost_usd === null ? '—' : `$${t.cost_usd.toFixed(4)}`}`;
}

export function renderTrajectoryText(v: TrajectoryView): string {
  const out: string[] = [`${v.file}`];
  if (v.unreadable) out.push(`  cannot read: ${v.unreadable}`);
  if (v.notAtif) out.push(`  not ATIF: ${v.notAtif.looksLike} — ${v.notAtif.detail}`);
  if (v.schemaVersion) out.push(`  ${v.schemaVersion}${v.taskLevel ? ' · task-level trajectory (seeds an agent; not an attempt\'s own)' : ''}`);
  if (v.agent.name) out.push(`  agent ${v.agent.name} ${v.agent.version ?? ''}${v.agent.model ? ` · ${v.agent.model}` : ''}`);
  out.push(`  steps ${v.steps.length} · tool calls ${v.toolCalls} (${v.paired} paired) · elapsed ${formatDuration(v.elapsedMs)}`);
  out.push(`  recount            ${totalsLine(v.totals)}`);
  if (v.subagents.length) out.push(`  with subagents     ${totalsLine(v.totalsWithSubagents)}`);
  for (const d of v.disagreements) out.push(`  final_metrics ${d.field} ${d.recorded} ≠ recount ${d.recount}${d.recountWithSubagents !== d.recount ? ` (with subagents ${d.recountWithSubagents})` : ''}`);
  for (const f of v.files.slice(1)) out.push(`  continuation ${f.path} from step #${f.firstStep + 1} (${plural(f.steps, 'step')}${f.foldedCopies ? `, ${plural(f.foldedCopies, 'copied step')} folded` : ''})`);
  for (const s of v.subagents) out.push(`  subagent (${s.kind}) ${s.ref}${s.path ? ` → ${s.path}` : ''}${s.unresolved ? ` — ${s.unresolved}` : ` · ${plural(s.steps, 'step')}`}`);
  if (v.steps.length) out.push('');
  for (const s of v.steps) {
    const flags = [s.copied ? 'copied' : '', s.llmCallCount === 0 ? 'no model call' : '', s.toolCalls.length ? `${s.toolCalls.length} call${s.toolCalls.length > 1 ? 's' : ''}` : ''].filter(Boolean).join(', ');
    out.push(`  #${String(s.index + 1).padStart(4)} ${s.source.padEnd(6)} ${formatDuration(s.durationMs).padStart(8)}  ${s.summary}${flags ? `  [${flags}]` : ''}`);
  }
  if (v.problems.length) {
    out.push('', `  problems (${v.problems.length}):`);
    for (const p of v.problems) out.push(`    ${p.severity} ${p.file}#${p.pointer}: ${p.message}`);
  }
  // Each entry is one line by construction; what the trajectory supplied (names, messages, paths) cannot act on the
  // terminal (control and bidi characters shown as escapes, docs/untrusted-runs.md#terminal-output).
  return `${out.map(safeLine).join('\n')}\n`;
}
