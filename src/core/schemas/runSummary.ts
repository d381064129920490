// The ONE definition of the `<rollouts stem>_run_summary.json` document we write (docs/run-summary.md explains every
// key and the rule behind it). The writer emits exactly these keys in exactly this order; readers of summaries written
// by other tools should stay lenient (unknown keys are kept by `.loose()`).
import { z } from 'zod';
import { OUTCOMES, RUN_SUMMARY_SCHEMA_VERSION } from '../summary/layout';

export * from '../summary/layout';

/** A path relative to the summary's own folder (`..` allowed), absolute only when no relative form exists. */
const Rel = z.string();
const RelOrNull = Rel.nullable();

export const RunSummaryInputSchema = z.object({
  /** Every `*digest*` string key of the materialized row's `task_input.task_data` (e.g. `_ng_digest`). */
  digests: z.record(z.string(), z.string()),
  /** `responses_create_params.metadata` of the input, one item per turn (one item for a single-turn task). */
  metadata: z.array(z.record(z.string(), z.unknown())),
}).loose();

export const RunSummaryRepeatSchema = z.object({
  repeat: z.number().int(),
  outcome: z.enum(OUTCOMES),
  reward: z.number().nullable(),
  mask_sample: z.boolean().nullable(),
  failure_kind: z.string().nullable(),
  failure_reason: z.string().nullable(),
  /** Present only when `outcome` is `failed` (from the failures sidecar's `_ng_failure_*`). */
  failure_class: z.string().nullable().optional(),
  failure_stage: z.string().nullable().optional(),
  failure_terminal: z.boolean().nullable().optional(),
  verifier_mode: z.string().nullable(),
  verifier_logs: RelOrNull,
  test_stdout: RelOrNull,
  reward_file: RelOrNull,
  trajectory: RelOrNull,
  artifacts: RelOrNull,
  missing: z.array(Rel),
  input: RunSummaryInputSchema,
}).loose();

export const RunSummaryTaskSchema = z.object({
  task_id: z.string(),
  task_index: z.number().int().nullable(),
  repeats: z.array(RunSummaryRepeatSchema),
}).loose();


export const RunSummaryFilesSchema = z.object({
  rollouts: RelOrNull,
  failures: RelOrNull,
  materialized_inputs: RelOrNull,
  aggregate_metrics: RelOrNull,
  rows: RelOrNull,
  rows_prepare: RelOrNull,
  rows_metrics: RelOrNull,
  collated: RelOrNull,
  collated_metrics: RelOrNull,
  collated_conflict: RelOrNull.optional(),
  run_config: RelOrNull,
  quality_summary: RelOrNull,
  rollout_verdicts: RelOrNull,
  sources: RelOrNull.optional(),
}).loose();

export const RunSummaryDatasetSchema = z.object({
  source: z.string().nullable(),
  name: z.string().nullable(),
  version: z.string().nullable(),
  folder: RelOrNull,
  digests: z.record(z.string(), z.string()),
}).loose();

export const RunSummarySchema = z.object({
  schema_version: z.literal(RUN_SUMMARY_SCHEMA_VERSION).meta({ description: 'Version of this layout (ours; absent in summaries NeMo Gym wrote).' }),
  target: z.string().nullable().meta({ description: 'The task target as given: a folder, harbor:<dataset>[@ver] or harbor:<org>/<name>@<tag>.' }),
  taskset: z.string().nullable().meta({ description: 'The taskset (prepared folder name; _ng_task_id.taskset).' }),
  agent: z.string().nullable().meta({ description: 'The --agent harness (oracle_agent for gym dataset validate).' }),
  dataset: RunSummaryDatasetSchema,
  task_source: z.string().nullable().meta({ description: 'The dataset label the rows were materialized with.' }),
  result_task_source: z.string().nullable().meta({ description: 'The task_source the result and failure rows carry when they agree; null without rows. Differs from task_source when another run wrote the results.' }),
  files: RunSummaryFilesSchema,
  stale_files: z.record(z.string(), Rel).meta({ description: 'Output files an earlier run left under this run\'s names (unchanged since before dispatch): key → path.' }),
  missing_paths: z.array(Rel).meta({ description: 'Paths the rows name that are not on disk, relative to this file.' }),
  unvalidated: z.record(z.string(), z.string()).meta({ description: 'Tasks reference validation left out, with the reason (NO_REFERENCE_SOLUTION); they have no task entry.' }),
  skipped: z.record(z.string(), z.string()).meta({ description: 'Tasks that did not load, with the reason.' }),
  schedule_unknown: z.string().optional().meta({ description: 'Present only when no file of the run records its schedule (no materialized inputs, rollouts or failures of its own, and no repeat count): why; the tasks are then listed with no repeat.' }),
  tasks: z.array(RunSummaryTaskSchema).meta({ description: 'One entry per selected task, one repeat entry per selected repeat.' }),
}).loose();

export type RunSummaryDocument = z.infer<typeof RunSummarySchema>;
export type RunSummaryTask = z.infer<typeof RunSummaryTaskSchema>;
export type RunSummaryRepeat = z.infer<typeof RunSummaryRepeatSchema>;
export type RunSummaryFiles = z.infer<typeof RunSummaryFilesSchema>;
export type RunSummaryInput = z.infer<typeof RunSummaryInputSchema>;
export type Outcome = (typeof OUTCOMES)[number];

