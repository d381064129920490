// vscode:// deep links of Harbor Runs (vscode-free): open a run, a task, an attempt, or a trajectory at a step.
//   vscode://harbor-runs.harbor-runs/run?run=<run id>
//   vscode://harbor-runs.harbor-runs/task?run=<run id>&task=<task id>
//   vscode://harbor-runs.harbor-runs/attempt?run=<run id>&task=<task id>&attempt=<attempt id>
//   vscode://harbor-runs.harbor-runs/trajectory?file=<absolute path>&step=<1-based step>
export const EXTENSION_ID = 'harbor-runs.harbor-runs';

export type DeepLink =
  | { kind: 'run'; run: string }
  | { kind: 'task'; run: string; task: string }
  | { kind: 'attempt'; run: string; task: string; attempt: string }
  | { kind: 'trajectory'; file: string; step: number | null };

const MAX = 4096;

export function formatDeepLink(link: DeepLink, scheme = 'vscode'): string {
  const q = new URLSearchParams();
  if (link.kind === 'trajectory') { q.set('file', link.file); if (link.step !== null) q.set('step', String(link.step + 1)); }
  else {
    q.set('run', link.run);
    if (link.kind !== 'run') q.set('task', link.task);
    if (link.kind === 'attempt') q.set('attempt', link.attempt);
  }
  return `${scheme}://${EXTENSION_ID}/${link.kind}?${q.toString()}`;
}

/** Parses a link's path and query (as vscode.Uri gives them); null when it is not one of ours or is malformed. */
export function parseDeepLink(pathPart: string, query: string): DeepLink | null {
  if (pathPart.length > 100 || query.length > MAX * 3) return null;
  const q = new URLSearchParams(query);
  const get = (k: string) => { const v = q.get(k); return v && v.length <= MAX && !v.includes('\0') ? v : null; };
  switch (pathPart.replace(/^\/+/, '')) {
    case 'run': { const run = get('run'); return run ? { kind: 'run', run } : null; }
    case 'task': { const run = get('run'); const task = get('task'); return run && task ? { kind: 'task', run, task } : null; }
    case 'attempt': {
      const run = get('run'); const task = get('task'); const attempt = get('attempt');
      return run && task && attempt ? { kind: 'attempt', run, task, attempt } : null;
    }
    case 'trajectory': {
      const file = get('file');
      if (!file || !file.startsWith('/') || !/\.json$/i.test(file)) return null;
      const s = q.get('step');
      const n = s && /^\d{1,9}$/.test(s) ? Number(s) : null;
      return { kind: 'trajectory', file, step: n !== null && n >= 1 ? n - 1 : null };
    }
    default: return null;
  }
}
