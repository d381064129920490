// A trial folder copied in from another job: its config (result.json's, else config.json) names another job than the
// one it is in — another job_id than the job's result.json `id`, or a trials_dir (the job's folder when the trial ran,
// whose last part is the job's name) of another name than the job's config.json `job_name`. Such a trial is still
// read and counted with the job's (nothing is dropped), and said: a warning naming the trial, the file and both jobs.
// A job whose own config.json / result.json is gone (pruned) is known by what most of its trials name.
import type { Problem } from '../../model';
import type { JobConfig, JobResult } from '../../schemas/harbor';
import type { TrialRead } from './trial';

/** The last part of a path as Harbor wrote it (POSIX or Windows separators, a trailing one ignored). */
export function lastPart(p: string): string {
  const parts = p.split(/[\\/]+/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : p;
}

/** The value more than half of `values` hold (nulls left out), else null. */
function majority(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  let n = 0;
  for (const v of values) if (v !== null) { n++; counts.set(v, (counts.get(v) ?? 0) + 1); }
  for (const [v, c] of counts) if (c * 2 > n) return v;
  return null;
}

export function foreignTrialProblems(job: { config: JobConfig | null; result: JobResult | null }, trials: readonly TrialRead[]): Problem[] {
  const named = trials.filter((t) => t.job);
  if (!named.length) return [];
  const ownId = typeof job.result?.id === 'string' && job.result.id ? job.result.id : null;
  const ownName = typeof job.config?.job_name === 'string' && job.config.job_name ? job.config.job_name : null;
  const id = ownId ?? majority(named.map((t) => t.job!.id));
  const name = ownName ?? majority(named.map((t) => (t.job!.trialsDir ? lastPart(t.job!.trialsDir) : null)));
  const by = (own: string | null) => (own ? 'this job\'s' : 'named by most of its trials: the job\'s own files are not here');
  const out: Problem[] = [];
  for (const t of named) {
    const j = t.job!;
    const theirName = j.trialsDir ? lastPart(j.trialsDir) : null;
    const said: string[] = [];
    if (id && j.id && j.id !== id) said.push(`job_id ${j.id}, not ${id} (${by(ownId)})`);
    if (name && theirName && theirName !== name) said.push(`trials_dir ${j.trialsDir} (job ${theirName}), not job ${name} (${by(ownName)})`);
    if (!said.length) continue;
    out.push({
      file: j.file, severity: 'warning', code: 'foreign-trial',
      message: `trial ${t.name} names another job: ${said.join('; ')}. Copied in from another job? It is counted with this job's trials`,
    });
  }
  return out;
}
