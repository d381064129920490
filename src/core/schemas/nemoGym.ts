// Lenient zod schemas of the NeMo Gym files a Harbor run leaves (docs/formats.md#nemo-gym). Unknown keys are kept
// (`.loose()`), every field the writer does not strictly need is optional, and `safeParse` failures become Problems
// in the readers, never exceptions.
import { z } from 'zod';

/** `_ng_task_id`: `{taskset, task_id}`, or a plain string on some paths. */
export const NgTaskIdSchema = z.union([
  z.string(),
  z.object({ taskset: z.string().nullable().optional(), task_id: z.string() }).loose(),
]);
export type NgTaskId = z.infer<typeof NgTaskIdSchema>;

export function taskIdOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { task_id?: unknown }).task_id === 'string') {
    return (v as { task_id: string }).task_id;
  }
  return undefined;
}

const ResponsesCreateParamsSchema = z.object({
  input: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
}).loose();

/** A row of `rollouts.jsonl` (verify response + single_agent_turn result + collector stamps). */
export const ResultRowSchema = z.object({
  _ng_task_id: NgTaskIdSchema.optional(),
  _ng_task_index: z.number().int().optional(),
  _ng_rollout_index: z.number().int().optional(),
  _ng_attempt_index: z.number().int().optional(),
  responses_create_params: ResponsesCreateParamsSchema.optional(),
  response: z.unknown().optional(),
  reward: z.number().nullable().optional(),
  mask_sample: z.boolean().nullable().optional(),
  failure_kind: z.string().nullable().optional(),
  failure_reason: z.string().nullable().optional(),
  verifier_rewards: z.record(z.string(), z.number()).nullable().optional(),
  verifier_return_code: z.number().nullable().optional(),
  verifier_logs_dir: z.string().nullable().optional(),
  verifier_seconds: z.number().nullable().optional(),
  verifier_mode: z.string().nullable().optional(),
  ng_trajectory: z.unknown().optional(),
  task_source: z.string().nullable().optional(),
  agent_ref: z.object({ type: z.string().optional(), name: z.string() }).loose().optional(),
}).loose();
export type ResultRow = z.infer<typeof ResultRowSchema>;

/** A row of `<stem>_failures.jsonl`. */
export const FailureRowSchema = z.object({
  _ng_task_id: NgTaskIdSchema.optional(),
  _ng_task_index: z.number().int().optional(),
  _ng_rollout_index: z.number().int().optional(),
  _ng_attempt_index: z.number().int().optional(),
  _ng_failure_class: z.string().optional(),
  _ng_failure_terminal: z.boolean().optional(),
  _ng_failure_message: z.string().nullable().optional(),
  _ng_failure_stage: z.string().optional(),
  _ng_failure_partial_response: z.unknown().optional(),
  task_source: z.string().nullable().optional(),
}).loose();
export type FailureRow = z.infer<typeof FailureRowSchema>;

const TaskInputSchema = z.object({
  responses_create_params: z.union([ResponsesCreateParamsSchema, z.array(ResponsesCreateParamsSchema)]).optional(),
  task_data: z.record(z.string(), z.unknown()).optional(),
}).loose();

/** A prepared row of `tasks.jsonl` (`MaterializedTask`). */
export const PreparedRowSchema = z.object({
  task_id: NgTaskIdSchema,
  task_input: TaskInputSchema.optional(),
  task_source: z.string().optional(),
}).loose();
export type PreparedRow = z.infer<typeof PreparedRowSchema>;

/** A row of `<stem>_materialized_inputs.jsonl`: a prepared row plus the collector's stamps. */
export const MaterializedInputRowSchema = PreparedRowSchema.extend({
  _ng_task_index: z.number().int().optional(),
  _ng_rollout_index: z.number().int().optional(),
  _ng_attempt_index: z.number().int().optional(),
  _ng_environment_server: z.string().optional(),
  agent_ref: z.object({ type: z.string().optional(), name: z.string() }).loose().optional(),
}).loose();
export type MaterializedInputRow = z.infer<typeof MaterializedInputRowSchema>;

/** `quality_summary.json` of the health check; `run.rollouts` is the seed's record (relative to the report's folder). */
export const QualitySummarySchema = z.object({
  run: z.object({
    rollouts: z.union([z.string(), z.array(z.string())]).optional(),
    ignored_checks: z.array(z.string()).optional(),
    verdicts: z.record(z.string(), z.number()).optional(),
    issues: z.record(z.string(), z.number()).optional(),
  }).loose(),
  tasks: z.record(z.string(), z.unknown()).optional(),
}).loose();
export type QualitySummary = z.infer<typeof QualitySummarySchema>;

/** A row of `rollout_verdicts.jsonl`. */
export const RolloutVerdictRowSchema = z.object({
  _ng_task_index: z.number().int(),
  _ng_rollout_index: z.number().int(),
  rollout_id: z.string().optional(),
  verdict: z.string(),
  findings: z.array(z.object({ check: z.string(), locator: z.unknown().optional(), detail: z.unknown().optional() }).loose()).optional(),
  unobserved: z.array(z.string()).optional(),
  stage_index: z.number().int().optional(),
}).loose();
export type RolloutVerdictRow = z.infer<typeof RolloutVerdictRowSchema>;
