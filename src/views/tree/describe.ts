// What each tree node looks like: label, description, icon, flag (decoration) and click action (vscode-free).
import { visibleText } from './visibleText';
import type { Attempt, Evidence, Run, Task } from '../../core/model';
import { countRun, isPass } from '../../core/model';
import { formatCount, formatReward, plural } from '../../core/format';
import { basename, relativeInside } from '../../core/paths';
import { type IconSpec, OUTCOME_ICONS, OUTCOME_LABELS, bestOutcome, runIcon } from '../outcomeStyle';
import { rowLabel } from './runPlaces';
import { MORE_PAGE, type TreeNode, problemCount, refusalOf } from './nodes';

export type Collapsible = 'none' | 'collapsed' | 'expanded';

/** A flag shown as a FileDecoration: badge (≤ 2 chars), colour and reason. */
export interface Flag {
  badge: string;
  severity: 'error' | 'warning';
  reason: string;
}

/** What a click does. */
export type ClickAction = 'open' | 'explain-missing' | 'explain-refused' | 'open-problem' | 'show-more' | 'none';

export interface ItemSpec {
  id: string;
  label: string;
  description?: string;
  /** A codicon, or 'file' / 'folder' for the file-icon theme's icon of `path`. */
  icon?: IconSpec | 'file' | 'folder';
  collapsible: Collapsible;
  /** Composite context value ("attempt+missing", "runfile+rollouts+present") matched by regex `when` clauses. */
  contextValue: string;
  /** The file or folder the item stands for (open, copy, reveal). */
  path?: string;
  isDir?: boolean;
  click: ClickAction;
  flag?: Flag;
}

export function formatDuration(sec: number | null | undefined): string | undefined {
  if (sec === null || sec === undefined || !Number.isFinite(sec)) return undefined;
  if (sec < 60) return `${Math.round(sec * 10) / 10}s`;
  const m = Math.floor(sec / 60);
  if (m < 60) return `${m}m ${Math.round(sec - m * 60)}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** "2/4 · pass@4 ✓" (passed / attempts, and whether any of the k attempts passed). */
export function taskDescription(task: Task): string {
  let passed = 0;
  let measured = 0;
  for (const a of task.attempts) {
    if (a.reward !== null && a.reward !== undefined) { measured++; if (isPass(a.reward)) passed++; }
  }
  const k = task.attempts.length;
  if (measured === 0) return `0/${k} · not measured`;
  return `${passed}/${k} · pass@${k} ${passed > 0 ? '✓' : '✗'}`;
}

export function attemptDescription(a: Attempt): string {
  const parts = [formatReward(a.reward), OUTCOME_LABELS[a.outcome]];
  const d = formatDuration(a.durationSec);
  if (d) parts.push(d);
  if (a.missing.length > 0) parts.push(`${a.missing.length} missing`);
  if (a.provenance?.some((p) => p.severity === 'warning')) parts.push('⚠ reward provenance');
  return parts.join(' · ');
}

const countCache = new WeakMap<Run, ReturnType<typeof countRun>>();

/** countRun, once per run object (a run read from disk is never changed in place: a refresh makes a new one). */
export function runCounts(run: Run): ReturnType<typeof countRun> {
  let c = countCache.get(run);
  if (!c) { c = countRun(run); countCache.set(run, c); }
  return c;
}

/**
 * "6 steps · reward 0.704" for a training run that has no attempts of its own (a viewer data dir's run with
 * train/metrics.jsonl): its steps and the last step's reward, where "0/0 passed · 0 attempts" would say nothing.
 */
function trainingParts(run: Run): string[] | undefined {
  const t = run.training;
  if (!t || runCounts(run).total > 0) return undefined;
  const parts = ['training', plural(t.steps, 'step')];
  const reward = t.last?.reward;
  if (typeof reward === 'number' && Number.isFinite(reward)) parts.push(`reward ${formatReward(reward)}`);
  return parts;
}

/**
 * A run's row: its label and what follows its counts. A Harbor job's label is long ("job · dataset · agents ·
 * models") and would hide its counts in a sidebar of ordinary width: its row is named by the job, and the agents,
 * models and dataset follow the counts (its tooltip and every panel still give the whole label).
 */
export function runRow(run: Run): { label: string; after?: string } {
  const label = rowLabel(run);
  if (label === run.label) return { label };
  const after = [run.identity.agent, run.identity.model, run.identity.dataset].filter(Boolean).join(' · ');
  return after ? { label, after } : { label };
}

export function runDescription(run: Run): string {
  const c = runCounts(run);
  const parts = trainingParts(run) ?? [`${c.passed}/${c.measured} passed`, plural(c.total, 'attempt')];
  if (run.state === 'running') parts.push('running');
  else if (run.state === 'incomplete') parts.push('incomplete');
  if (run.summaryIsVirtual) parts.push('no summary');
  else if (run.summaryOutdated) parts.push('summary out of date');
  return parts.join(' · ');
}

function attemptFlag(a: Attempt): Flag | undefined {
  if (a.outcome === 'missing') return { badge: '!', severity: 'error', reason: 'missing: selected, but no row or trial exists' };
  let n = a.missing.length;
  if (n === 0) for (const e of a.evidence) if (!e.present && !e.outside) n++;
  if (n > 0) return { badge: String(Math.min(n, 99)), severity: 'warning', reason: plural(n, 'missing path') };
  const prov = a.provenance?.filter((p) => p.severity === 'warning') ?? [];
  if (prov.length) return { badge: 'R', severity: 'warning', reason: `reward provenance: ${prov.map((p) => p.message).join('; ')}` };
  return undefined;
}

function taskFlag(t: Task): Flag | undefined {
  let n = 0;
  for (const a of t.attempts) if (attemptFlag(a)) n++;
  return n > 0 ? { badge: String(Math.min(n, 99)), severity: 'warning', reason: `${plural(n, 'attempt')} with missing evidence` } : undefined;
}

function evidenceSpec(id: string, ev: Evidence): ItemSpec {
  const hasKids = (ev.children?.length ?? 0) > 0 || (ev.failedTests?.length ?? 0) > 0 || (ev.isDir && ev.present);
  const base = { id, label: ev.label, path: ev.path, isDir: ev.isDir };
  if (!ev.present) {
    return {
      ...base,
      description: `not on disk${ev.namedBy ? ` · ${ev.namedBy}` : ''}`,
      icon: { id: 'question', color: 'list.errorForeground' },
      collapsible: hasKids ? 'collapsed' : 'none',
      contextValue: `evidence+${ev.kind}+missing${ev.isDir ? '+dir' : '+file'}`,
      click: 'explain-missing',
      flag: { badge: '!', severity: 'error', reason: `not on disk: ${ev.path}` },
    };
  }
  const nFailed = ev.failedTests?.length ?? 0;
  return {
    ...base,
    description: nFailed > 0 ? plural(nFailed, 'failed test') : undefined,
    icon: ev.isDir ? 'folder' : 'file',
    collapsible: hasKids ? 'collapsed' : 'none',
    contextValue: `evidence+${ev.kind}+present${ev.isDir ? '+dir' : '+file'}`,
    click: ev.isDir ? 'none' : 'open',
  };
}

/**
 * An item whose path leaves the run (by its text, or a link resolving outside): shown as refused with the reason,
 * not expandable, and a click explains instead of opening.
 */
function refusedSpec(id: string, label: string, path: string | undefined, reason: string, contextValue: string): ItemSpec {
  return {
    id, label, path, description: 'refused: outside the run', icon: { id: 'circle-slash', color: 'list.warningForeground' },
    collapsible: 'none', contextValue: `${contextValue}+refused`, click: 'explain-refused',
    flag: { badge: '⊘', severity: 'warning', reason: `not opened: ${reason}` },
  };
}

/** `where`: the run's place when another run's row has the same label (runPlaces.ts), first in its description. */
function runRowText(run: Run, where?: string): { label: string; description: string } {
  const { label, after } = runRow(run);
  const description = after ? `${runDescription(run)} · ${after}` : runDescription(run);
  return { label, description: where === undefined ? description : `${where} · ${description}` };
}

/**
 * A problem's file as its row names it: the path inside the run ("fix-git__Xk3pQ7a/result.json": a job's trials all
 * have a result.json), else its name.
 */
export function problemFileText(run: Run, file: string): string {
  const rel = relativeInside(run.root, file);
  return rel === file || !rel ? basename(file) : rel;
}

/** The item for a node, its label and description as shown: a run's control and bidi characters as escapes. */
export function describe(n: TreeNode): ItemSpec {
  const spec = describeNode(n);
  const label = visibleText(spec.label);
  const description = spec.description === undefined ? undefined : visibleText(spec.description);
  return label === spec.label && description === spec.description ? spec : { ...spec, label, ...(description === undefined ? {} : { description }) };
}

function describeNode(n: TreeNode): ItemSpec {
  const refused = refusalOf(n);
  if (refused !== undefined) {
    const label = n.kind === 'evidence' ? n.evidence.label : n.kind === 'run-file' ? n.file.label : n.kind === 'entry' ? n.name : n.id;
    const path = n.kind === 'evidence' ? n.evidence.path : n.kind === 'run-file' ? n.file.path ?? undefined : n.kind === 'entry' ? n.path : undefined;
    return refusedSpec(n.id, label, path, refused, n.kind === 'run-file' ? `runfile+${n.file.key}` : n.kind);
  }
  switch (n.kind) {
    case 'folder':
      return { id: n.id, label: n.name, icon: { id: 'root-folder' }, collapsible: 'expanded', contextValue: 'folder', path: n.folder, isDir: true, click: 'none' };
    case 'run': {
      const run = n.run;
      const np = problemCount(run);
      const kind = run.kind === 'nemo-gym' ? 'nemo' : run.kind === 'harbor-job' ? 'harbor' : 'viewer';
      const ctx = ['run', kind];
      if (run.rolloutsPath) ctx.push('rollouts');
      if (run.summaryPath && !run.summaryIsVirtual) ctx.push('summary');
      return {
        id: n.id, ...runRowText(run, n.where), icon: runIcon(run), collapsible: 'collapsed',
        contextValue: ctx.join('+'), path: run.anchor, click: 'none',
        flag: np > 0 && run.problems.some((p) => p.severity !== 'info')
          ? { badge: String(Math.min(np, 99)), severity: run.problems.some((p) => p.severity === 'error') ? 'error' : 'warning', reason: plural(np, 'problem') }
          : undefined,
      };
    }
    case 'task':
      return {
        id: n.id, label: n.task.label || n.task.id, description: taskDescription(n.task), icon: OUTCOME_ICONS[bestOutcome(n.task)],
        collapsible: n.task.attempts.length ? 'collapsed' : 'none', contextValue: 'task', click: 'none', flag: taskFlag(n.task),
      };
    case 'attempt': {
      const a = n.attempt;
      const hasKids = a.evidence.length > 0 || a.missing.length > 0;
      return {
        id: n.id, label: a.label, description: attemptDescription(a), icon: OUTCOME_ICONS[a.outcome],
        collapsible: hasKids ? 'collapsed' : 'none',
        contextValue: `attempt+${a.outcome}${a.dir ? '+dir' : ''}`, path: a.dir, isDir: a.dir !== undefined,
        click: a.outcome === 'missing' ? 'explain-missing' : 'none', flag: attemptFlag(a),
      };
    }
    case 'evidence': return evidenceSpec(n.id, n.evidence);
    case 'failed-test':
      return { id: n.id, label: n.name, description: n.message?.split('\n')[0], icon: { id: 'error', color: 'testing.iconFailed' }, collapsible: 'none', contextValue: 'failed-test', path: n.file, click: 'open' };
    case 'entry':
      return { id: n.id, label: n.name, icon: n.isDir ? 'folder' : 'file', collapsible: n.isDir ? 'collapsed' : 'none', contextValue: n.isDir ? 'entry+dir' : 'entry+file', path: n.path, isDir: n.isDir, click: n.isDir ? 'none' : 'open' };
    case 'files': {
      const files = n.run.files.filter((f) => f.path !== null);
      const bad = files.filter((f) => !f.present || f.stale).length;
      return { id: n.id, label: 'Run files', description: `${files.length}${bad ? ` · ${bad} flagged` : ''}`, icon: { id: 'files' }, collapsible: 'collapsed', contextValue: 'group+files', click: 'none' };
    }
    case 'run-file': {
      const f = n.file;
      const isDir = f.isDir === true;
      const flag: Flag | undefined = f.stale
        ? { badge: 'S', severity: 'warning', reason: `stale: left by an earlier run under this name` }
        : !f.present ? { badge: '!', severity: 'error', reason: `not on disk: ${f.path}` } : undefined;
      return {
        id: n.id, label: f.label, description: f.stale ? 'stale: an earlier run\'s' : !f.present ? 'not on disk' : f.path ? basename(f.path) : undefined,
        icon: f.present ? (isDir ? 'folder' : 'file') : { id: 'question', color: 'list.errorForeground' },
        collapsible: isDir && f.present ? 'collapsed' : 'none',
        contextValue: `runfile+${f.key}${f.present ? '+present' : '+missing'}${f.stale ? '+stale' : ''}${isDir ? '+dir' : '+file'}`,
        path: f.path ?? undefined, isDir, click: f.present && !isDir ? 'open' : !f.present ? 'explain-missing' : 'none', flag,
      };
    }
    case 'problems': {
      const np = problemCount(n.run);
      return { id: n.id, label: 'Problems', description: String(np), icon: { id: 'warning', color: 'problemsWarningIcon.foreground' }, collapsible: 'collapsed', contextValue: 'group+problems', click: 'none' };
    }
    case 'problem': {
      const p = n.problem;
      const icon: IconSpec = p.severity === 'error' ? { id: 'error', color: 'problemsErrorIcon.foreground' }
        : p.severity === 'warning' ? { id: 'warning', color: 'problemsWarningIcon.foreground' } : { id: 'info', color: 'problemsInfoIcon.foreground' };
      return {
        id: n.id, label: p.message, description: `${p.code} · ${problemFileText(n.run, p.file)}${p.line ? `:${p.line}` : ''}`, icon, collapsible: 'none',
        contextValue: `problem+${p.code}`, path: p.file, click: 'open-problem',
      };
    }
    case 'reason':
      return {
        id: n.id, label: n.reason.taskId, description: `${n.which} · ${n.reason.reason}`, icon: { id: n.which === 'skipped' ? 'debug-step-over' : 'circle-slash' },
        collapsible: 'none', contextValue: `reason+${n.which}`, click: 'none',
      };
    case 'missing-path':
      return {
        id: n.id, label: basename(n.path), description: 'not on disk', icon: { id: 'question', color: 'list.errorForeground' }, collapsible: 'none',
        contextValue: 'missing-path', path: n.path, click: 'explain-missing', flag: { badge: '!', severity: 'error', reason: `not on disk: ${n.path}` },
      };
    case 'more': {
      const next = Math.min(MORE_PAGE, n.total - n.shown);
      return {
        id: n.id, label: `Show ${plural(next, 'more ' + n.what.slice(0, -1), `more ${n.what}`, formatCount)}`, description: `${formatCount(n.shown)} of ${formatCount(n.total)} shown`,
        icon: { id: 'ellipsis' }, collapsible: 'none', contextValue: 'more', click: 'show-more',
      };
    }
    case 'message':
      return { id: n.id, label: n.text, description: n.description, icon: { id: n.icon ?? 'filter' }, collapsible: 'none', contextValue: 'message', click: 'none' };
  }
}
