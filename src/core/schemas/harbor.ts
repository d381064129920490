// Zod schemas of what Harbor writes into a job folder (docs/formats.md#harbor-job): trial and job result.json,
// config.json (TrialConfig / JobConfig), lock.json, artifacts/manifest.json.
// Lenient where producers are: unknown keys are kept (looseObject), fields added over time are optional,
// config.json is written with exclude_defaults so almost everything may be absent.
// Strict where a wrong type would mislead: rewards are finite numbers, token counts numbers, timestamps strings.
import { z } from 'zod';

const str = z.string().nullish();
const num = z.number().nullish();
const int = z.number().int().nullish();
const bool = z.boolean().nullish();
const anyRecord = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------- result.json (trial)

/** Per-phase timing; a phase that never started is null. */
export const TimingInfoSchema = z.looseObject({ started_at: str, finished_at: str });

/** The first trial-level (or step-level) exception. `exception_type` is the class `__name__` only. */
export const ExceptionInfoSchema = z.looseObject({
  exception_type: z.string(),
  exception_message: str,
  exception_traceback: str,
  occurred_at: str,
});

/** Rewards of one verification: flat `{key: number}`, values finite (reward.json / reward.txt). */
export const RewardsSchema = z.record(z.string(), z.number());
export const VerifierResultSchema = z.looseObject({ rewards: RewardsSchema.nullish() });

/** AgentContext: n_input_tokens INCLUDES cached tokens. rollout_details kept unvalidated (can be huge). */
export const AgentContextSchema = z.looseObject({
  n_input_tokens: num,
  n_cache_tokens: num,
  n_output_tokens: num,
  cost_usd: num,
  rollout_details: z.array(z.unknown()).nullish(),
  metadata: anyRecord.nullish(),
});

export const ModelInfoSchema = z.looseObject({ name: z.string(), provider: str });
export const AgentInfoSchema = z.looseObject({
  name: z.string(),
  version: str,
  model_info: ModelInfoSchema.nullish(),
});

/** Untagged union LocalTaskId{path} | GitTaskId{git_url, git_commit_id?, path} | PackageTaskId{org, name, ref?}. */
export const TaskIdSchema = z.union([
  z.looseObject({ git_url: z.string(), git_commit_id: str, path: str }),
  z.looseObject({ org: z.string(), name: z.string(), ref: str }),
  z.looseObject({ path: z.string() }),
  anyRecord,
]);

export const StepResultSchema = z.looseObject({
  step_name: z.string(),
  agent_result: AgentContextSchema.nullish(),
  verifier_result: VerifierResultSchema.nullish(),
  exception_info: ExceptionInfoSchema.nullish(),
  agent_execution: TimingInfoSchema.nullish(),
  verifier: TimingInfoSchema.nullish(),
});

// ---------------------------------------------------------------- config.json

export const TaskConfigSchema = z.looseObject({
  path: str, git_url: str, git_commit_id: str, name: str, ref: str, overwrite: bool, download_dir: str, source: str,
});

export const AgentConfigSchema = z.looseObject({
  name: str,
  import_path: str,
  model_name: str,
  n_concurrent: int,
  override_timeout_sec: num,
  override_setup_timeout_sec: num,
  max_timeout_sec: num,
  kwargs: anyRecord.nullish(),
  env: anyRecord.nullish(),
});

export const EnvironmentConfigSchema = z.looseObject({ type: str, force_build: bool, delete: bool });
export const VerifierConfigSchema = z.looseObject({
  override_timeout_sec: num, max_timeout_sec: num, disable: bool, import_path: str,
});

export const TrialConfigSchema = z.looseObject({
  task: TaskConfigSchema.nullish(),
  trial_name: str,
  trials_dir: str,
  install_only: bool,
  timeout_multiplier: num,
  agent: AgentConfigSchema.nullish(),
  user_agent: AgentConfigSchema.nullish(),
  environment: EnvironmentConfigSchema.nullish(),
  verifier: VerifierConfigSchema.nullish(),
  artifacts: z.array(z.unknown()).nullish(),
  job_id: str,
  source_trial: anyRecord.nullish(),
});

export const DatasetConfigSchema = z.looseObject({
  path: str, name: str, version: str, ref: str, registry_url: str, registry_path: str, repo: str,
  task_names: z.array(z.string()).nullish(),
  exclude_task_names: z.array(z.string()).nullish(),
  n_tasks: int,
});

export const RetryConfigSchema = z.looseObject({
  max_retries: int,
  include_exceptions: z.array(z.string()).nullish(),
  exclude_exceptions: z.array(z.string()).nullish(),
});

export const JobConfigSchema = z.looseObject({
  job_name: str,
  jobs_dir: str,
  n_attempts: int,
  install_only: bool,
  timeout_multiplier: num,
  n_concurrent_trials: int,
  retry: RetryConfigSchema.nullish(),
  environment: EnvironmentConfigSchema.nullish(),
  verifier: VerifierConfigSchema.nullish(),
  metrics: z.array(z.unknown()).nullish(),
  agents: z.array(AgentConfigSchema).nullish(),
  datasets: z.array(DatasetConfigSchema).nullish(),
  tasks: z.array(TaskConfigSchema).nullish(),
  artifacts: z.array(z.unknown()).nullish(),
});

// ---------------------------------------------------------------- the trial result

export const TrialResultSchema = z.looseObject({
  id: str,
  task_name: str,
  trial_name: str,
  trial_uri: str,
  task_id: TaskIdSchema.nullish(),
  source: str,
  task_checksum: str,
  config: TrialConfigSchema.nullish(),
  agent_info: AgentInfoSchema.nullish(),
  agent_result: AgentContextSchema.nullish(),
  verifier_result: VerifierResultSchema.nullish(),
  verifier_environment_mode: str,
  exception_info: ExceptionInfoSchema.nullish(),
  started_at: str,
  finished_at: str,
  environment_setup: TimingInfoSchema.nullish(),
  agent_setup: TimingInfoSchema.nullish(),
  agent_execution: TimingInfoSchema.nullish(),
  verifier: TimingInfoSchema.nullish(),
  step_results: z.array(StepResultSchema).nullish(),
});

// ---------------------------------------------------------------- result.json (job)

export const AgentDatasetStatsSchema = z.looseObject({
  n_trials: int,
  n_errors: int,
  metrics: z.array(anyRecord).nullish(),
  /** Keys are k as JSON strings. */
  pass_at_k: z.record(z.string(), z.number()).nullish(),
  /** {reward_key: {value as string: [trial names]}} */
  reward_stats: z.record(z.string(), z.record(z.string(), z.array(z.string()))).nullish(),
  exception_stats: z.record(z.string(), z.array(z.string())).nullish(),
});

export const JobStatsSchema = z.looseObject({
  n_completed_trials: int,
  n_errored_trials: int,
  n_running_trials: int,
  n_pending_trials: int,
  n_cancelled_trials: int,
  n_retries: int,
  /** Legacy (before 2026-04-29): n_trials / n_errors. */
  n_trials: int,
  n_errors: int,
  evals: z.record(z.string(), AgentDatasetStatsSchema).nullish(),
  n_input_tokens: num,
  n_cache_tokens: num,
  n_output_tokens: num,
  cost_usd: num,
});

export const JobResultSchema = z.looseObject({
  id: str,
  /** Naive local time, no offset. */
  started_at: str,
  updated_at: str,
  finished_at: str,
  n_total_trials: int,
  stats: JobStatsSchema.nullish(),
  trial_results: z.array(z.unknown()).nullish(),
});

// ---------------------------------------------------------------- lock.json (light)

export const TaskLockSchema = z.looseObject({
  name: str, version: str, type: str, digest: str, source: str, path: str, git_url: str, git_commit_id: str,
});

export const TrialLockSchema = z.looseObject({
  schema_version: int,
  task: TaskLockSchema.nullish(),
  agent: AgentConfigSchema.nullish(),
  environment: anyRecord.nullish(),
  verifier: anyRecord.nullish(),
});

export const JobLockSchema = z.looseObject({
  schema_version: int,
  created_at: str,
  harbor: z.looseObject({ version: str, git_commit_hash: str, is_editable: bool }).nullish(),
  n_concurrent_trials: int,
  retry: RetryConfigSchema.nullish(),
  trials: z.array(TrialLockSchema).nullish(),
});

// ---------------------------------------------------------------- artifacts/manifest.json

export const ArtifactManifestEntrySchema = z.looseObject({
  /** Path in the container. */
  source: z.string(),
  /** Relative to the trial dir, e.g. "artifacts/logs/artifacts". */
  destination: z.string(),
  /** "file" | "directory" (kept as a string: new values must not hide the manifest). */
  type: str,
  /** "ok" | "failed" | "empty" | "skipped". */
  status: str,
  service: str,
});
export const ArtifactManifestSchema = z.array(ArtifactManifestEntrySchema);

// ---------------------------------------------------------------- types

export type TimingInfo = z.infer<typeof TimingInfoSchema>;
export type ExceptionInfo = z.infer<typeof ExceptionInfoSchema>;
export type Rewards = z.infer<typeof RewardsSchema>;
export type VerifierResult = z.infer<typeof VerifierResultSchema>;
export type AgentContext = z.infer<typeof AgentContextSchema>;
export type AgentInfo = z.infer<typeof AgentInfoSchema>;
export type TaskId = z.infer<typeof TaskIdSchema>;
export type StepResult = z.infer<typeof StepResultSchema>;
export type TaskConfig = z.infer<typeof TaskConfigSchema>;
export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export type TrialConfig = z.infer<typeof TrialConfigSchema>;
export type DatasetConfig = z.infer<typeof DatasetConfigSchema>;
export type JobConfig = z.infer<typeof JobConfigSchema>;
export type TrialResult = z.infer<typeof TrialResultSchema>;
export type AgentDatasetStats = z.infer<typeof AgentDatasetStatsSchema>;
export type JobStats = z.infer<typeof JobStatsSchema>;
export type JobResult = z.infer<typeof JobResultSchema>;
export type TrialLock = z.infer<typeof TrialLockSchema>;
export type JobLock = z.infer<typeof JobLockSchema>;
export type ArtifactManifestEntry = z.infer<typeof ArtifactManifestEntrySchema>;
export type ArtifactManifest = z.infer<typeof ArtifactManifestSchema>;

// ---------------------------------------------------------------- helpers

/** JobStats counters with the legacy names folded in (n_trials → n_completed_trials, n_errors → n_errored_trials). */
export interface JobCounts {
  completed: number | null;
  errored: number | null;
  running: number | null;
  pending: number | null;
  cancelled: number | null;
  retries: number | null;
}

export function jobCounts(stats: JobStats | null | undefined): JobCounts {
  const s = stats ?? {};
  return {
    completed: s.n_completed_trials ?? s.n_trials ?? null,
    errored: s.n_errored_trials ?? s.n_errors ?? null,
    running: s.n_running_trials ?? null,
    pending: s.n_pending_trials ?? null,
    cancelled: s.n_cancelled_trials ?? null,
    retries: s.n_retries ?? null,
  };
}

/**
 * Harbor's primary reward (cli/jobs.py:_primary_reward): `rewards.reward` if that key exists, else the only value
 * when there is exactly one key, else null.
 */
export function primaryReward(rewards: Record<string, number> | null | undefined): number | null {
  if (!rewards) return null;
  if (Object.prototype.hasOwnProperty.call(rewards, 'reward')) return rewards.reward;
  const keys = Object.keys(rewards);
  return keys.length === 1 ? rewards[keys[0]] : null;
}

/** A zod error as one short line: "stats.n_trials: Invalid input: expected number, received string". */
export function describeZodError(error: z.ZodError): { message: string; path: (string | number)[] } {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).filter((p): p is string | number => typeof p !== 'symbol');
  const where = path.length ? path.join('.') : '(root)';
  const more = error.issues.length > 1 ? ` (+${error.issues.length - 1} more)` : '';
  return { message: `${where}: ${issue?.message ?? 'invalid'}${more}`, path };
}
