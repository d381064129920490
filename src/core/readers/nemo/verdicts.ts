// The health check's rollout_verdicts.jsonl, keyed by task index and repeat, to link a verdict to each attempt.
import type { FsPort } from '../../fs/port';
import type { Problem } from '../../model';
import { readJsonl } from '../../jsonl';

export interface Health {
  verdict: string;
  checks: string[];
}

export function verdictKey(taskIndex: number, repeat: number): string {
  return `${taskIndex}:${repeat}`;
}

/**
 * Reads the verdict rows: `checks` are the failed checks of an unhealthy row, or the checks that lacked input for
 * an unobserved one. A row of a multi-stage rollout (stage_index) merges into its repeat's worst verdict.
 */
export async function readVerdicts(fs: FsPort, file: string): Promise<{ byKey: Map<string, Health>; problems: Problem[] }> {
  const byKey = new Map<string, Health>();
  const problems: Problem[] = [];
  const rank = (v: string) => (v === 'unhealthy' ? 2 : v === 'unobserved' ? 1 : 0);
  const res = await readJsonl(fs, file, (row, line) => {
    const t = row._ng_task_index;
    const r = row._ng_rollout_index;
    const verdict = typeof row.verdict === 'string' ? row.verdict : undefined;
    if (typeof t !== 'number' || typeof r !== 'number' || !verdict) {
      problems.push({ file, line, severity: 'warning', code: 'schema',
        message: `line ${line} is not a verdict row (needs _ng_task_index, _ng_rollout_index and verdict)` });
      return;
    }
    const findings = Array.isArray(row.findings) ? row.findings : [];
    const failed = findings.map((f) => (f && typeof f === 'object' ? (f as Record<string, unknown>).check : undefined))
      .filter((c): c is string => typeof c === 'string');
    const unobserved = Array.isArray(row.unobserved) ? row.unobserved.filter((c): c is string => typeof c === 'string') : [];
    const checks = verdict === 'unhealthy' ? failed : verdict === 'unobserved' ? unobserved : [];
    const key = verdictKey(t, r);
    const prev = byKey.get(key);
    if (!prev || rank(verdict) > rank(prev.verdict)) byKey.set(key, { verdict, checks: [...new Set([...(prev?.checks ?? []), ...checks])] });
    else prev.checks = [...new Set([...prev.checks, ...checks])];
  });
  return { byKey, problems: [...problems, ...res.problems] };
}
