// Failure causes of a run: attempts grouped by Harbor exception type, NeMo Gym failure class, or verifier failure
// (a verifier-category exception, a failure at the verification stage, a null reward the verifier never gave),
// and the ctrf tests that fail most often across the run.
import type { Attempt, Evidence, Run } from '../model';
import type { FailingTest, FailureCause } from '../../protocol/dashboard';

const MAX_REFS = 200;

export interface CauseOf { key: string; source: FailureCause['source']; label: string; detail: string | null; message: string | null }

/** The cause an attempt is grouped under, or null when it has none (it passed or failed on its merits). */
export function causeOf(a: Attempt): CauseOf | null {
  const ex = a.exception;
  if (ex) {
    const category = typeof a.details?.exceptionCategory === 'string' ? a.details.exceptionCategory : null;
    return {
      key: `exception:${ex.type}`, source: category === 'verifier' ? 'verifier' : 'exception', label: ex.type,
      detail: category ?? (ex.where && ex.where !== 'trial' ? `step ${ex.where}` : null), message: ex.message || null,
    };
  }
  const f = a.failure;
  if (f) {
    const name = f.class ?? f.kind ?? null;
    const verifier = !!f.stage && /verif/i.test(f.stage);
    if (name) return { key: `failure:${name}`, source: verifier ? 'verifier' : 'failure', label: name, detail: f.stage ?? null, message: f.reason ?? null };
    if (a.reward === null && f.reason) return { key: 'verifier:no-reward', source: 'verifier', label: 'no reward (verifier never ran)', detail: null, message: f.reason };
  }
  return null;
}

export function failureCauses(run: Run): FailureCause[] {
  const groups = new Map<string, FailureCause & { taskSet: Set<string> }>();
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      const c = causeOf(a);
      if (!c) continue;
      let g = groups.get(c.key);
      if (!g) {
        g = { key: c.key, source: c.source, label: c.label, detail: c.detail, count: 0, tasks: 0, sample: c.message?.slice(0, 2000) ?? null, attempts: [], taskSet: new Set() };
        groups.set(c.key, g);
      }
      g.count++;
      g.taskSet.add(t.id);
      if (g.attempts.length < MAX_REFS) g.attempts.push({ taskId: t.id, attemptId: a.id });
    }
  }
  return [...groups.values()]
    .map(({ taskSet, ...g }) => ({ ...g, tasks: taskSet.size }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

function ctrfOf(evs: readonly Evidence[], out: Evidence[] = []): Evidence[] {
  for (const e of evs) {
    if (e.kind === 'ctrf' && e.failedTests?.length) out.push(e);
    if (e.children) ctrfOf(e.children, out);
  }
  return out;
}

/** The tests ctrf.json reports failing, most often failing first (each attempt counted once per test). */
export function failingTests(run: Run, max = 20): FailingTest[] {
  const byName = new Map<string, { attempts: number; tasks: Set<string>; message: string | null }>();
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      const seen = new Set<string>();
      for (const e of ctrfOf(a.evidence)) {
        for (const ft of e.failedTests ?? []) {
          if (seen.has(ft.name)) continue;
          seen.add(ft.name);
          let g = byName.get(ft.name);
          if (!g) { g = { attempts: 0, tasks: new Set(), message: ft.message?.slice(0, 2000) ?? null }; byName.set(ft.name, g); }
          g.attempts++;
          g.tasks.add(t.id);
        }
      }
    }
  }
  return [...byName.entries()]
    .map(([name, g]) => ({ name, attempts: g.attempts, tasks: g.tasks.size, message: g.message }))
    .sort((a, b) => b.attempts - a.attempts || a.name.localeCompare(b.name))
    .slice(0, max);
}
