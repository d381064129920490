// Zod schemas of ATIF trajectories (agent/trajectory.json), versions ATIF-v1.0 … ATIF-v1.8 (docs/trajectory-json.md).
// Harbor's own models forbid extra keys; a reader keeps them (looseObject) so a newer producer still opens.
// Fields added in later versions are optional, so one schema reads every version.
import { z } from 'zod';

export const ATIF_VERSIONS = [
  'ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6', 'ATIF-v1.7', 'ATIF-v1.8',
] as const;
export type AtifVersion = (typeof ATIF_VERSIONS)[number];

const str = z.string().nullish();
const nonNegInt = z.number().int().min(0).nullish();
const num = z.number().nullish();
const extra = z.record(z.string(), z.unknown()).nullish();

/** v1.6: where an image lives — relative to the trajectory file (images/x.png), absolute, or a URL. */
export const ImageSourceSchema = z.looseObject({
  media_type: z.string(),
  path: z.string(),
});

/** v1.8: an audio clip, like an image source plus its length. */
export const AudioSourceSchema = z.looseObject({
  media_type: z.string(),
  path: z.string(),
  duration_sec: z.number().nullish(),
});

/** v1.6 multimodal content: text parts carry `text`, image parts a `source`; v1.8 adds audio parts. */
export const ContentPartSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), source: ImageSourceSchema }),
  z.looseObject({ type: z.literal('audio'), source: AudioSourceSchema }),
]);

/** A message or observation content: plain text, or (v1.6+) a list of content parts. */
export const ContentSchema = z.union([z.string(), z.array(ContentPartSchema)]);

export const ToolCallSchema = z.looseObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  extra,
});

/** Points at a subagent's trajectory: embedded (trajectory_id) or a file (trajectory_path); at least one. */
export const SubagentTrajectoryRefSchema = z
  .looseObject({ trajectory_id: str, trajectory_path: str, session_id: str, extra })
  .refine((r) => !!r.trajectory_id || !!r.trajectory_path, {
    message: 'a subagent_trajectory_ref needs trajectory_id or trajectory_path',
  });

export const ObservationResultSchema = z.looseObject({
  /** Must equal a tool_call_id of the SAME step; absent when one observation answers a batch of calls. */
  source_call_id: str,
  content: ContentSchema.nullish(),
  subagent_trajectory_ref: z.array(SubagentTrajectoryRefSchema).nullish(),
  extra,
});

export const ObservationSchema = z.looseObject({ results: z.array(ObservationResultSchema) });

export const MetricsSchema = z.looseObject({
  /** Includes cached tokens. */
  prompt_tokens: nonNegInt,
  completion_tokens: nonNegInt,
  /** Subset of prompt_tokens. */
  cached_tokens: nonNegInt,
  cost_usd: num,
  prompt_token_ids: z.array(z.number()).nullish(),
  completion_token_ids: z.array(z.number()).nullish(),
  logprobs: z.array(z.number()).nullish(),
  extra,
});

export const FinalMetricsSchema = z.looseObject({
  total_prompt_tokens: nonNegInt,
  total_completion_tokens: nonNegInt,
  total_cached_tokens: nonNegInt,
  /** Includes subagents. */
  total_cost_usd: num,
  total_steps: nonNegInt,
  extra,
});

export const AtifAgentSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  model_name: str,
  /** v1.5: OpenAI function schema list. */
  tool_definitions: z.array(z.unknown()).nullish(),
  extra,
});

export const StepSchema = z.looseObject({
  step_id: z.number().int(),
  /** ISO 8601. */
  timestamp: str,
  source: z.enum(['system', 'user', 'agent']),
  model_name: str,
  reasoning_effort: z.union([z.string(), z.number()]).nullish(),
  /** May be "". */
  message: ContentSchema,
  reasoning_content: str,
  tool_calls: z.array(ToolCallSchema).nullish(),
  observation: ObservationSchema.nullish(),
  metrics: MetricsSchema.nullish(),
  /** v1.5: copied from an earlier trajectory file; never counted again in totals. */
  is_copied_context: z.boolean().nullish(),
  /** v1.7 */
  llm_call_count: nonNegInt,
  extra,
});

export interface Trajectory {
  schema_version: AtifVersion;
  session_id?: string | null;
  trajectory_id?: string | null;
  agent: z.infer<typeof AtifAgentSchema>;
  steps: z.infer<typeof StepSchema>[];
  notes?: string | null;
  final_metrics?: z.infer<typeof FinalMetricsSchema> | null;
  continued_trajectory_ref?: string | null;
  extra?: Record<string, unknown> | null;
  subagent_trajectories?: Trajectory[] | null;
  [key: string]: unknown;
}

export const TrajectorySchema: z.ZodType<Trajectory> = z.looseObject({
  schema_version: z.enum(ATIF_VERSIONS),
  session_id: str,
  trajectory_id: str,
  agent: AtifAgentSchema,
  steps: z.array(StepSchema).min(1),
  notes: str,
  final_metrics: FinalMetricsSchema.nullish(),
  /** A file name, e.g. "trajectory.cont-1.json". */
  continued_trajectory_ref: str,
  extra,
  /** v1.7: embedded full trajectories, each with a unique trajectory_id. */
  get subagent_trajectories() {
    return z.array(TrajectorySchema).nullish();
  },
});

export type ImageSource = z.infer<typeof ImageSourceSchema>;
export type ContentPart = z.infer<typeof ContentPartSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type SubagentTrajectoryRef = z.infer<typeof SubagentTrajectoryRefSchema>;
export type ObservationResult = z.infer<typeof ObservationResultSchema>;
export type Observation = z.infer<typeof ObservationSchema>;
export type Metrics = z.infer<typeof MetricsSchema>;
export type FinalMetrics = z.infer<typeof FinalMetricsSchema>;
export type AtifAgent = z.infer<typeof AtifAgentSchema>;
export type Step = z.infer<typeof StepSchema>;

export interface TrajectoryStats {
  /** Steps of this file that are its own (copied-context steps left out). */
  steps: number;
  agentSteps: number;
  toolCalls: number;
  /** Sums over the own steps' metrics; null when no step (and no final_metrics) says. Prompt includes cached. */
  promptTokens: number | null;
  completionTokens: number | null;
  cachedTokens: number | null;
  costUsd: number | null;
}

/**
 * Counts of one trajectory file. Steps with `is_copied_context: true` (copied from the previous file of a
 * continued trajectory) are left out of every count, so a trajectory split over trajectory.json +
 * trajectory.cont-N.json sums to the true totals. When no own step carries a metric, the file's `final_metrics`
 * total is used for it instead. Embedded subagent trajectories are not added in.
 */
export function trajectoryStats(traj: Pick<Trajectory, 'steps' | 'final_metrics'>): TrajectoryStats {
  let steps = 0;
  let agentSteps = 0;
  let toolCalls = 0;
  const sums: Record<'prompt' | 'completion' | 'cached' | 'cost', number | null> = {
    prompt: null, completion: null, cached: null, cost: null,
  };
  const add = (key: keyof typeof sums, v: number | null | undefined) => {
    if (typeof v === 'number' && Number.isFinite(v)) sums[key] = (sums[key] ?? 0) + v;
  };
  for (const step of traj.steps ?? []) {
    if (step.is_copied_context === true) continue;
    steps++;
    if (step.source === 'agent') agentSteps++;
    toolCalls += step.tool_calls?.length ?? 0;
    const m = step.metrics;
    if (m) {
      add('prompt', m.prompt_tokens);
      add('completion', m.completion_tokens);
      add('cached', m.cached_tokens);
      add('cost', m.cost_usd);
    }
  }
  const f = traj.final_metrics;
  const pick = (own: number | null, total: number | null | undefined): number | null =>
    own !== null ? own : typeof total === 'number' && Number.isFinite(total) ? total : null;
  return {
    steps,
    agentSteps,
    toolCalls,
    promptTokens: pick(sums.prompt, f?.total_prompt_tokens),
    completionTokens: pick(sums.completion, f?.total_completion_tokens),
    cachedTokens: pick(sums.cached, f?.total_cached_tokens),
    costUsd: pick(sums.cost, f?.total_cost_usd),
  };
}

/**
 * The checks Harbor's validator makes beyond types (trajectory.py / step.py), as messages; [] when none fail:
 * sequential step ids from 1, source_call_id resolving within its step, agent-only fields on agent steps only,
 * llm_call_count 0 without metrics or reasoning, timestamps that parse.
 */
export function trajectoryIssues(traj: Trajectory): string[] {
  const out: string[] = [];
  traj.steps.forEach((step, i) => {
    const where = `steps[${i}] (step_id ${step.step_id})`;
    if (step.step_id !== i + 1) out.push(`${where}: step_id should be ${i + 1}`);
    if (step.timestamp && Number.isNaN(Date.parse(step.timestamp))) out.push(`${where}: timestamp is not ISO 8601`);
    if (step.source !== 'agent') {
      for (const k of ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const) {
        if (step[k] !== undefined && step[k] !== null) out.push(`${where}: ${k} is only allowed on agent steps`);
      }
    }
    if (step.llm_call_count === 0 && (step.metrics || step.reasoning_content)) {
      out.push(`${where}: llm_call_count 0 forbids metrics and reasoning_content`);
    }
    const ids = new Set((step.tool_calls ?? []).map((c) => c.tool_call_id));
    for (const r of step.observation?.results ?? []) {
      if (r.source_call_id && !ids.has(r.source_call_id)) {
        out.push(`${where}: source_call_id ${r.source_call_id} names no tool call of this step`);
      }
    }
  });
  return out;
}
