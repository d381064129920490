// The viewer data contract (docs/formats.md#viewer-data): one directory with projects/<p>/project.json, datasets/<d>/{dataset.json,
// summary.json, traces/*.json} and runs/<r>/{run.json, train/metrics.jsonl}. Lenient: unknown keys are kept and
// every field the contract shows is optional except the few a view cannot do without; wrong types that would
// mislead (a reward that is not a number, a passed_at that is not an attempt number) are issues.
import { z } from 'zod';

const Num = z.number();
const NumOrNull = z.number().nullable();

export const SupportTierSchema = z.looseObject({
  tier: z.string(),
  caveats: z.array(z.string()).optional(),
});

export const ProjectSchema = z.looseObject({
  project_id: z.string().optional(),
  label: z.string().optional(),
  description: z.string().nullable().optional(),
  source: z.record(z.string(), z.unknown()).nullable().optional(),
  support: z.record(z.string(), SupportTierSchema).optional(),
});
export type ViewerProject = z.infer<typeof ProjectSchema>;

export const DatasetMetaSchema = z.looseObject({
  label: z.string().optional(),
  notes: z.string().nullable().optional(),
});

export const ViewerAttemptSchema = z.looseObject({
  attempt: z.number().int().positive(),
  reward: NumOrNull,
  n_turns: NumOrNull.optional(),
  elapsed_sec: NumOrNull.optional(),
  trace: z.string().nullable().optional(),
});
export type ViewerAttempt = z.infer<typeof ViewerAttemptSchema>;

export const ViewerCellSchema = z.looseObject({
  passed_at: z.number().int().positive().nullable().optional(),
  attempts: z.array(ViewerAttemptSchema),
});

export const ViewerTaskSchema = z.looseObject({
  id: z.string(),
  index: z.number().int().optional(),
  difficulty_level: z.number().nullable().optional(),
  difficulty: z.string().nullable().optional(),
  question: z.string().nullable().optional(),
  answer: z.unknown().optional(),
  reward_mode: z.string().nullable().optional(),
  cells: z.record(z.string(), ViewerCellSchema),
});

const Breakdown = (key: 'model' | 'harness') => z.looseObject({
  [key]: z.string(),
  cells: Num.optional(),
  n_measured: Num.optional(),
  mean_turns: NumOrNull.optional(),
});

export const ViewerSummarySchema = z.looseObject({
  k_max: z.number().int().positive().optional(),
  models: z.array(z.string()).optional(),
  harnesses: z.array(z.string()).optional(),
  summary: z.looseObject({
    tasks_total: Num.optional(),
    tasks_any_pass: Num.optional(),
    attempts_total: Num.optional(),
    attempts_passed: Num.optional(),
    n_all_infra: Num.optional(),
  }).optional(),
  by_model: z.array(Breakdown('model')).optional(),
  by_harness: z.array(Breakdown('harness')).optional(),
  tasks: z.array(ViewerTaskSchema),
});
export type ViewerSummary = z.infer<typeof ViewerSummarySchema>;

/**
 * ViewerSummarySchema with its tasks left unchecked: a reader checks each task with ViewerTaskSchema as it goes (a
 * check of the whole document at once builds a copy of all its tasks, tens of MB for 10,000 tasks × 8 attempts).
 */
export const ViewerSummaryHeadSchema = ViewerSummarySchema.extend({ tasks: z.array(z.unknown()) });

/** traces/<id>.json: free-form; these fields are read when present. */
export const ViewerTraceSchema = z.looseObject({
  task_id: z.string().optional(),
  model: z.string().optional(),
  harness: z.string().optional(),
  attempt: z.number().optional(),
  reward: NumOrNull.optional(),
  reward_method: z.string().nullable().optional(),
  n_turns: NumOrNull.optional(),
  elapsed_sec: NumOrNull.optional(),
  gold: z.unknown().optional(),
  predicted: z.unknown().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown().optional() })).optional(),
});

/** runs/<id>/run.json: its layout is not specified by the contract beyond its presence; read what is there. */
export const TrainingRunSchema = z.looseObject({
  run_id: z.string().optional(),
  label: z.string().optional(),
  model: z.string().nullable().optional(),
  harness: z.string().nullable().optional(),
  dataset: z.string().nullable().optional(),
  started_at: z.string().nullable().optional(),
  finished_at: z.string().nullable().optional(),
});

/** One row of runs/<id>/train/metrics.jsonl. */
export const TrainingMetricsRowSchema = z.looseObject({
  step: z.number().int().nonnegative(),
  reward: NumOrNull.optional(),
  reward_std: NumOrNull.optional(),
  loss: NumOrNull.optional(),
  ratio: NumOrNull.optional(),
  kl: NumOrNull.optional(),
  entropy: NumOrNull.optional(),
  n_rollouts: NumOrNull.optional(),
  n_unscorable: NumOrNull.optional(),
  wall_s: NumOrNull.optional(),
});
