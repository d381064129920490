// Markdown tooltips of tree nodes (vscode-free text; the provider wraps it in a MarkdownString, built on hover).
import type { Attempt, Run, Task } from '../../core/model';
import { OUTCOME_LABELS } from '../outcomeStyle';
import { passAtK } from '../../core/passAtK';
import { formatReward, plural } from '../../core/format';
import { formatDuration, runCounts, taskDescription } from './describe';
import { visibleText } from './visibleText';
import { type TreeNode, refusalOf } from './nodes';

/** Longest text of a run a tooltip quotes (a 100,000-character id would make a hover nobody can read). */
const MAX_QUOTED = 2000;

function visible(s: string): string {
  if (s.length > MAX_QUOTED) s = `${s.slice(0, MAX_QUOTED)}… (${s.length} characters)`;
  return visibleText(s); // control and bidi characters as escapes (visibleText.ts)
}

/**
 * Escapes Markdown so text from run files (exception messages, task ids) renders literally: every ASCII punctuation
 * character is backslash-escaped (CommonMark lets any of them be), so no link, image, autolink (`https\:\/\/…`,
 * `<command:…>`), HTML, heading, list, table or emphasis can start; control and bidi characters are shown as `\uXXXX`.
 */
export function escapeMd(s: string): string {
  return visible(s).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/**
 * An inline code span that `s` cannot leave: its fence is one backtick longer than the longest run of backticks in
 * `s`, padded with spaces (CommonMark strips one space each side), newlines folded to spaces.
 */
export function code(s: string): string {
  const text = visible(s).replace(/[\r\n]+/g, ' ');
  const longest = (text.match(/`+/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0);
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}

function line(label: string, value: string | undefined | null): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : `**${label}:** ${value}`;
}

function join(lines: (string | undefined)[]): string {
  return lines.filter((l): l is string => l !== undefined).join('\n\n');
}

function attemptTooltip(run: Run, task: Task, a: Attempt): string {
  const rewards = a.rewards && Object.keys(a.rewards).length > 1
    ? Object.entries(a.rewards).map(([k, v]) => `${escapeMd(k)} ${formatReward(v)}`).join(', ') : undefined;
  const t = a.tokens;
  const tokens = t && (t.input != null || t.output != null)
    ? `${t.input ?? '—'} in${t.cached != null ? ` (${t.cached} cached)` : ''} · ${t.output ?? '—'} out` : undefined;
  const ex = a.exception ? `${code(a.exception.type)}${a.exception.where ? ` (${escapeMd(a.exception.where)})` : ''}: ${escapeMd(a.exception.message.slice(0, 500))}` : undefined;
  const failure = a.failure && (a.failure.kind || a.failure.reason)
    ? `${a.failure.kind ? code(a.failure.kind) : ''} ${escapeMd((a.failure.reason ?? '').slice(0, 300))}`.trim() : undefined;
  return join([
    `### ${escapeMd(task.label || task.id)} ${escapeMd(a.label)}`,
    line('Outcome', `${OUTCOME_LABELS[a.outcome]}${a.sourceOutcome ? ` (${escapeMd(a.sourceOutcome)})` : ''}`),
    line('Reward', a.reward === null ? '— (not measured: the verifier never scored it)' : formatReward(a.reward)),
    line('Rewards', rewards),
    line('Exception', ex),
    line('Failure', failure),
    line('Tokens', tokens),
    line('Cost', a.costUsd != null ? `$${a.costUsd.toFixed(4)}` : undefined),
    line('Duration', formatDuration(a.durationSec)),
    line('Started', a.startedAt ?? undefined),
    line('Finished', a.finishedAt ?? undefined),
    line('Turns', a.nTurns != null ? String(a.nTurns) : undefined),
    line('Health', a.health ? `${escapeMd(a.health.verdict)}${a.health.checks.length ? `: ${a.health.checks.map(escapeMd).join(', ')}` : ''}` : undefined),
    line('Folder', a.dir ? code(a.dir) : undefined),
    line('Row', a.source ? code(`${a.source.file}${a.source.line ? `:${a.source.line}` : ''}`) : undefined),
    a.provenance?.length ? `**Reward provenance:**\n\n${a.provenance.map((p) => `- ${p.severity === 'warning' ? '⚠ ' : ''}${escapeMd(p.message)}`).join('\n')}` : undefined,
    a.missing.length ? `**Missing (${a.missing.length}):**\n\n${a.missing.slice(0, 10).map((p) => `- ${code(p)}`).join('\n')}` : undefined,
    line('Run', escapeMd(run.label)),
  ]);
}

/** "pass@1 0.42 · pass@4 0.61 (12 of 14 tasks measured, 2 all infra)" over the tasks with a measured attempt. */
function passAtKLine(run: Run): string | undefined {
  const tasks = run.tasks.map((t) => ({ rewards: t.attempts.map((a) => a.reward) }));
  const kMax = Math.max(0, ...run.tasks.map((t) => t.attempts.length));
  if (kMax === 0) return undefined;
  const ks = kMax > 1 ? [1, kMax] : [1];
  const results = ks.map((k) => ({ k, r: passAtK(tasks, k) }));
  if (results[0].r.value === null) return undefined;
  const first = results[0].r;
  const values = results.map(({ k, r }) => `pass@${k} ${r.value === null ? '—' : r.value.toFixed(3)}`).join(' · ');
  return `${values} (${first.nMeasured} of ${plural(first.nTasks, 'task')} measured${first.nAllInfra ? `, ${first.nAllInfra} all infra` : ''})`;
}

function runTooltip(run: Run): string {
  const c = runCounts(run);
  const identity = Object.entries(run.identity).filter(([, v]) => v).map(([k, v]) => `${escapeMd(k)}: ${escapeMd(String(v))}`).join(' · ');
  const outcomes = Object.entries(c.byOutcome).filter(([, n]) => n > 0).map(([o, n]) => `${OUTCOME_LABELS[o as keyof typeof OUTCOME_LABELS]} ${n}`).join(' · ');
  return join([
    `### ${escapeMd(run.label)}`,
    line('Kind', run.kind),
    line('Identity', identity || undefined),
    line('State', run.state),
    line('Tasks', String(run.tasks.length)),
    line('Attempts', `${c.total} (${c.measured} measured, ${c.passed} passed)`),
    line('Outcomes', outcomes || undefined),
    line('pass@k', passAtKLine(run)),
    line('Started', run.startedAt ?? undefined),
    line('Finished', run.finishedAt ?? undefined),
    line('Problems', run.problems.length ? String(run.problems.length) : undefined),
    line('Folder', code(run.root)),
    line('Summary', run.summaryPath ? `${code(run.summaryPath)}${run.summaryIsVirtual ? ' (not written yet)' : run.summaryOutdated ? ' (older than the rows: Write Run Summary to update)' : ''}` : undefined),
  ]);
}

/** The tooltip text of a node, or undefined to keep the label as the tooltip. */
export function tooltipOf(n: TreeNode): string | undefined {
  const refused = refusalOf(n);
  if (refused !== undefined) return join([`**Not opened:** ${escapeMd(refused)}.`, 'A run\'s files are opened only inside its folder; open it yourself if you trust it.']);
  switch (n.kind) {
    case 'run': return runTooltip(n.run);
    case 'task': return join([`### ${escapeMd(n.task.label || n.task.id)}`, escapeMd(taskDescription(n.task)),
      ...n.task.attempts.map((a) => `- ${escapeMd(a.label)} ${formatReward(a.reward)} · ${OUTCOME_LABELS[a.outcome]}`)]);
    case 'attempt': return attemptTooltip(n.run, n.task, n.attempt);
    case 'evidence': {
      const ev = n.evidence;
      return join([code(ev.path), ev.present ? undefined : `**Not on disk.**${ev.namedBy ? ` ${escapeMd(ev.namedBy)}.` : ''}`]);
    }
    case 'failed-test': return join([`**Failed test:** ${code(n.name)}`, n.message ? escapeMd(n.message.slice(0, 1000)) : undefined]);
    case 'entry': return code(n.path);
    case 'run-file': return join([code(n.file.path ?? ''), n.file.stale ? '**Stale:** left by an earlier run under this name; its rows are not this run\'s.' : undefined,
      !n.file.present ? '**Not on disk.**' : undefined]);
    case 'problem': return join([escapeMd(n.problem.message), code(`${n.problem.file}${n.problem.line ? `:${n.problem.line}` : ''}`)]);
    case 'reason': return `**${n.which}:** ${escapeMd(n.reason.taskId)} — ${escapeMd(n.reason.reason)}`;
    case 'missing-path': return `**Not on disk:** ${code(n.path)}`;
    default: return undefined;
  }
}
