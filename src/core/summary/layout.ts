// The layout constants of the run summary document (zod-free, so the writer and the CLI load without zod; the zod
// schema in ../schemas/runSummary.ts is built from these).
export const RUN_SUMMARY_SCHEMA_VERSION = 1;

export const OUTCOMES = ['scored', 'masked', 'failed', 'missing'] as const;

/** The `files` keys, in the order they are written. `collated_conflict` and `sources` are written only when present. */
export const FILE_KEYS = [
  'rollouts', 'failures', 'materialized_inputs', 'aggregate_metrics',
  'rows', 'rows_prepare', 'rows_metrics',
  'collated', 'collated_metrics', 'collated_conflict',
  'run_config', 'quality_summary', 'rollout_verdicts', 'sources',
] as const;
export type FileKey = (typeof FILE_KEYS)[number];
/** The output names a fresh start may leave stale (rule 10). */
export const STALE_KEYS = ['rollouts', 'failures', 'materialized_inputs'] as const;
export type StaleKey = (typeof STALE_KEYS)[number];

/** Key order of a repeat entry (the failure_* trio only for `failed`). */
export const REPEAT_KEYS = [
  'repeat', 'outcome', 'reward', 'mask_sample', 'failure_kind', 'failure_reason',
  'failure_class', 'failure_stage', 'failure_terminal',
  'verifier_mode', 'verifier_logs', 'test_stdout', 'reward_file', 'trajectory', 'artifacts', 'missing', 'input',
] as const;

export const TOP_KEYS = [
  'schema_version', 'target', 'taskset', 'agent', 'dataset', 'task_source', 'result_task_source', 'files',
  'stale_files', 'missing_paths', 'unvalidated', 'skipped', 'schedule_unknown', 'tasks',
] as const;
