// The run dashboard part of the Run Overview's messages: zod schemas both sides validate (the host before it posts,
// the webview on receipt), types inferred from them. vscode-free and DOM-free. Every string in here can come from a
// run's files (task ids, exception messages, judge output): the webview renders it as text, never as markup.
import { z } from 'zod';
import { OUTCOMES } from '../core/model';
import type { PassAtKResult } from '../core/passAtK';

const Text = z.string().max(100_000);
const Short = z.string().max(2_000);
const Count = z.number().int().nonnegative();
const Num = z.number().finite();
const OptNum = Num.nullable();
export const OutcomeSchema = z.enum(OUTCOMES);
const Fraction = z.number().min(0).max(1).nullable();
/** How many units were measured (some reward not null) and how many had every attempt unmeasured. */
const Measured = { nMeasured: Count, nAllInfra: Count };
/** pass@1 and pass@k of a pivot cell or axis row (null when nothing was measured). */
const PassPair = { passAt1: Fraction, passAtK: Fraction, ...Measured };

/** pass@k of a run: the core's result (src/core/passAtK.ts) and its k; typed by it, so the two cannot drift. */
export type PassAtRow = PassAtKResult & { k: number };

export const PassAtRowSchema: z.ZodType<PassAtRow> = z.object({
  k: z.number().int().positive(),
  /** Mean over measured tasks; null when no task was measured. */
  value: Fraction,
  nTasks: Count,
  ...Measured,
});

/** sum / median / p90 of one quantity per attempt, over the attempts that report it. */
export const UsageStatSchema = z.object({
  n: Count,
  /** Attempts that do not report it (counted, not taken as zero). */
  missing: Count,
  sum: OptNum,
  median: OptNum,
  p90: OptNum,
});

export const RewardBinSchema = z.object({ from: Num, to: Num, count: Count });

export const RewardDistributionSchema = z.object({
  bins: z.array(RewardBinSchema).max(200),
  nMeasured: Count,
  /** Attempts with a null reward (not measured): shown beside the histogram, never in a bin. */
  nNull: Count,
  mean: OptNum,
  /** Every measured reward is 0 or 1. */
  binary: z.boolean(),
});

export const ScatterAxisSchema = z.object({
  key: z.enum(['costUsd', 'tokens', 'durationSec']),
  label: Short,
  /** Points with a value on this axis. */
  n: Count,
  /** Why the axis is hidden (no attempt reports it: self-hosted models have no cost). */
  note: Short.nullable(),
});

export const ScatterPointSchema = z.object({
  taskId: Text,
  label: Text,
  /** Mean reward over the measured attempts (y). */
  reward: Num,
  costUsd: OptNum,
  tokens: OptNum,
  durationSec: OptNum,
});

export const AttemptRefSchema = z.object({ taskId: Text, attemptId: Text });

export const FailureCauseSchema = z.object({
  /** Stable key, used by the table's cause filter: "exception:AgentTimeoutError", "failure:agent_run_error", … */
  key: Text,
  source: z.enum(['exception', 'failure', 'verifier']),
  label: Text,
  /** Harbor exception category / NeMo failure stage. */
  detail: Short.nullable(),
  count: Count,
  tasks: Count,
  /** One message of the group (untrusted text). */
  sample: Text.nullable(),
  /** The first attempts of the group (capped; `count` is the full number). */
  attempts: z.array(AttemptRefSchema).max(200),
});

export const FailingTestSchema = z.object({
  name: Text,
  attempts: Count,
  tasks: Count,
  message: Text.nullable(),
});

export const TaskTableRowSchema = z.object({
  id: Text,
  label: Text,
  /** 1-based first passing attempt (viewer data: the best cell's); null when none passed. */
  passedAt: z.number().int().positive().nullable(),
  /** Per attempt in order; null = not measured. */
  rewards: z.array(z.number().nullable()).max(10_000),
  meanReward: OptNum,
  /** The outcome of most of its attempts, and every outcome it has (for the filter). */
  outcome: OutcomeSchema,
  outcomes: z.array(OutcomeSchema),
  rewardMethod: Short.nullable(),
  tokens: OptNum,
  costUsd: OptNum,
  durationSec: OptNum,
  exceptions: z.array(Short),
  /** Failure cause keys of its attempts (FailureCause.key). */
  causes: z.array(Text),
  /** Reward provenance findings on its attempts. */
  provenance: Count,
  /** The attempt a click opens: the first with a provenance finding, else the first failing, else the first. */
  openAttemptId: Text.nullable(),
});

export const ProvenanceRowSchema = z.object({
  taskId: Text,
  attemptId: Text,
  attemptLabel: Text,
  code: z.enum(['reward-files-disagree', 'reward-before-verifier', 'reward-details']),
  severity: z.enum(['warning', 'info']),
  message: Text,
  /** Relative to the run's root when inside it. */
  file: Text,
});

export const PivotCellSchema = z.object({
  model: Text,
  harness: Text,
  /** (task, cell) pairs with at least one attempt. */
  units: Count,
  attempts: Count,
  ...PassPair,
  meanReward: OptNum,
});

export const AxisRowSchema = z.object({
  name: Text,
  cells: Count,
  ...PassPair,
  meanTurns: OptNum,
  /** What the dataset's summary.json says for this row, when it says it (pass@1 / pass@k as recorded). */
  recordedPassAt1: OptNum,
  recordedPassAtK: OptNum,
});

export const PivotSchema = z.object({
  models: z.array(Text),
  harnesses: z.array(Text),
  kMax: z.number().int().positive(),
  cells: z.array(PivotCellSchema),
  byModel: z.array(AxisRowSchema),
  byHarness: z.array(AxisRowSchema),
  support: z.array(z.object({ harness: Text, tier: Short, caveats: z.array(Text) })),
});

export const DashboardSchema = z.object({
  /** What pass@k averages over: tasks, or (task, model|harness cell) pairs for viewer data. */
  unit: z.enum(['task', 'task-cell']),
  passAt: z.array(PassAtRowSchema).max(1000),
  rewards: RewardDistributionSchema,
  usage: z.object({ tokens: UsageStatSchema, costUsd: UsageStatSchema, durationSec: UsageStatSchema }),
  /** Per-task points; past a few thousand tasks an even sample (every n-th task), `total` counting them all. */
  scatter: z.object({ axes: z.array(ScatterAxisSchema), points: z.array(ScatterPointSchema).max(20_000), total: Count }),
  causes: z.array(FailureCauseSchema).max(500),
  failingTests: z.array(FailingTestSchema).max(100),
  /** The first rows of the task table; the host sends the others in `rows` pages (src/protocol/runOverview.ts). */
  rows: z.array(TaskTableRowSchema),
  /** Rows of the task table once every page is in (≥ rows.length). */
  rowsTotal: Count,
  /** Tasks past the table's cap (never sent). */
  rowsOmitted: Count,
  provenance: z.array(ProvenanceRowSchema).max(2000),
  provenanceOmitted: Count,
  pivot: PivotSchema.nullable(),
});

/** Training curves (viewer data runs/<id>/train/metrics.jsonl), columnar; downsampled to at most maxPoints. */
export const TrainingSeriesSchema = z.object({
  /** Every step in the file, and the range shown. */
  totalSteps: Count,
  firstStep: OptNum,
  lastStep: OptNum,
  from: OptNum,
  to: OptNum,
  /** Every `stride`-th row of the range is shown (1 = all). */
  stride: z.number().int().positive(),
  steps: z.array(Num),
  series: z.array(z.object({ key: Short, values: z.array(Num.nullable()) })).max(32),
  /** The file is still being written (its last line is incomplete). */
  live: z.boolean(),
  badLines: Count,
});

/** A reward-details.json (rewardkit) as a tree of rows, for the selected attempt. */
export const RewardDetailNodeSchema = z.object({
  depth: z.number().int().min(0).max(32),
  name: Text,
  kind: Short.nullable(),
  score: OptNum,
  weight: OptNum,
  /** Criterion's raw value / aggregation / threshold, as text. */
  value: Text.nullable(),
  /** Reasoning, judge output, errors and warnings (untrusted text). */
  text: Text.nullable(),
});

export const RewardDetailsSchema = z.object({
  taskId: Text,
  attemptId: Text,
  file: Text,
  nodes: z.array(RewardDetailNodeSchema).max(5000),
  error: Text.nullable(),
});

export type Dashboard = z.infer<typeof DashboardSchema>;
export type UsageStat = z.infer<typeof UsageStatSchema>;
export type RewardDistribution = z.infer<typeof RewardDistributionSchema>;
export type ScatterAxis = z.infer<typeof ScatterAxisSchema>;
export type ScatterPoint = z.infer<typeof ScatterPointSchema>;
export type FailureCause = z.infer<typeof FailureCauseSchema>;
export type FailingTest = z.infer<typeof FailingTestSchema>;
export type TaskTableRow = z.infer<typeof TaskTableRowSchema>;
export type ProvenanceRow = z.infer<typeof ProvenanceRowSchema>;
export type Pivot = z.infer<typeof PivotSchema>;
export type PivotCell = z.infer<typeof PivotCellSchema>;
export type AxisRow = z.infer<typeof AxisRowSchema>;
export type TrainingSeries = z.infer<typeof TrainingSeriesSchema>;
export type RewardDetails = z.infer<typeof RewardDetailsSchema>;
export type RewardDetailNode = z.infer<typeof RewardDetailNodeSchema>;
