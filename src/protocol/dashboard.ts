// The run dashboard part of the Run Overview's messages: zod schemas both sides validate (the host before it posts,
// the webview on receipt), types inferred from them. vscode-free and DOM-free. Every string in here can come from a
// run's files (task ids, exception messages, judge output): the webview renders it as text, never as markup.
import * as z from 'zod/mini';
import { OUTCOMES } from '../core/model';
import type { PassAtKResult } from '../core/passAtK';

const Text = z.string().check(z.maxLength(100_000));
const Short = z.string().check(z.maxLength(2_000));
const Count = z.int().check(z.nonnegative());
const Num = z.number();
const OptNum = z.nullable(Num);
export const OutcomeSchema = z.enum(OUTCOMES);
const Fraction = z.nullable(z.number().check(z.gte(0)).check(z.lte(1)));
/** How many units were measured (some reward not null) and how many had every attempt unmeasured. */
const Measured = { nMeasured: Count, nAllInfra: Count };
/** pass@1 and pass@k of a pivot cell or axis row (null when nothing was measured). */
const PassPair = { passAt1: Fraction, passAtK: Fraction, ...Measured };

/** pass@k of a run: the core's result (src/core/passAtK.ts) and its k; typed by it, so the two cannot drift. */
export type PassAtRow = PassAtKResult & { k: number };

export const PassAtRowSchema: z.ZodMiniType<PassAtRow> = z.object({
  k: z.int().check(z.positive()),
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
  bins: z.array(RewardBinSchema).check(z.maxLength(200)),
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
  note: z.nullable(Short),
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
  detail: z.nullable(Short),
  count: Count,
  tasks: Count,
  /** One message of the group (untrusted text). */
  sample: z.nullable(Text),
  /** The first attempts of the group (capped; `count` is the full number). */
  attempts: z.array(AttemptRefSchema).check(z.maxLength(200)),
});

export const FailingTestSchema = z.object({
  name: Text,
  attempts: Count,
  tasks: Count,
  message: z.nullable(Text),
});

export const TaskTableRowSchema = z.object({
  id: Text,
  label: Text,
  /** 1-based first passing attempt (viewer data: the best cell's); null when none passed. */
  passedAt: z.nullable(z.int().check(z.positive())),
  /** Per attempt in order; null = not measured. */
  rewards: z.array(z.nullable(z.number())).check(z.maxLength(10_000)),
  meanReward: OptNum,
  /** The outcome of most of its attempts, and every outcome it has (for the filter). */
  outcome: OutcomeSchema,
  outcomes: z.array(OutcomeSchema),
  rewardMethod: z.nullable(Short),
  tokens: OptNum,
  costUsd: OptNum,
  durationSec: OptNum,
  exceptions: z.array(Short),
  /** Failure cause keys of its attempts (FailureCause.key). */
  causes: z.array(Text),
  /** Reward provenance findings on its attempts. */
  provenance: Count,
  /** The attempt a click opens: the first with a provenance finding, else the first failing, else the first. */
  openAttemptId: z.nullable(Text),
});

export const ProvenanceRowSchema = z.object({
  taskId: Text,
  attemptId: Text,
  attemptLabel: Text,
  code: z.enum(['reward-files-disagree', 'reward-file-vs-result', 'reward-before-verifier', 'reward-details']),
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
  kMax: z.int().check(z.positive()),
  cells: z.array(PivotCellSchema),
  byModel: z.array(AxisRowSchema),
  byHarness: z.array(AxisRowSchema),
  support: z.array(z.object({ harness: Text, tier: Short, caveats: z.array(Text) })),
});

export const DashboardSchema = z.object({
  /** What pass@k averages over: tasks, or (task, model|harness cell) pairs for viewer data. */
  unit: z.enum(['task', 'task-cell']),
  passAt: z.array(PassAtRowSchema).check(z.maxLength(1000)),
  rewards: RewardDistributionSchema,
  usage: z.object({ tokens: UsageStatSchema, costUsd: UsageStatSchema, durationSec: UsageStatSchema }),
  /** Per-task points; past a few thousand tasks an even sample (every n-th task), `total` counting them all. */
  scatter: z.object({ axes: z.array(ScatterAxisSchema), points: z.array(ScatterPointSchema).check(z.maxLength(20_000)), total: Count }),
  causes: z.array(FailureCauseSchema).check(z.maxLength(500)),
  failingTests: z.array(FailingTestSchema).check(z.maxLength(100)),
  /** The first rows of the task table; the host sends the others in `rows` pages (src/protocol/runOverview.ts). */
  rows: z.array(TaskTableRowSchema),
  /** Rows of the task table once every page is in (≥ rows.length). */
  rowsTotal: Count,
  /** Tasks past the table's cap (never sent). */
  rowsOmitted: Count,
  provenance: z.array(ProvenanceRowSchema).check(z.maxLength(2000)),
  provenanceOmitted: Count,
  pivot: z.nullable(PivotSchema),
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
  stride: z.int().check(z.positive()),
  steps: z.array(Num),
  series: z.array(z.object({ key: Short, values: z.array(z.nullable(Num)) })).check(z.maxLength(32)),
  /** The file is still being written (its last line is incomplete). */
  live: z.boolean(),
  badLines: Count,
});

/** A reward-details.json (rewardkit) as a tree of rows, for the selected attempt. */
export const RewardDetailNodeSchema = z.object({
  depth: z.int().check(z.gte(0)).check(z.lte(32)),
  name: Text,
  kind: z.nullable(Short),
  score: OptNum,
  weight: OptNum,
  /** Criterion's raw value / aggregation / threshold, as text. */
  value: z.nullable(Text),
  /** Reasoning, judge output, errors and warnings (untrusted text). */
  text: z.nullable(Text),
});

export const RewardDetailsSchema = z.object({
  taskId: Text,
  attemptId: Text,
  file: Text,
  nodes: z.array(RewardDetailNodeSchema).check(z.maxLength(5000)),
  error: z.nullable(Text),
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
