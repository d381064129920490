// The ONE definition of the messages between the Compare Runs panel (host, src/vscode/panels/compareRunsPanel.ts) and
// its webview (webview/compareRuns/main.ts); both validate what they receive (docs/compare.md). The model is the
// core's RunComparison (src/core/compare/runs.ts) cut to what the panel shows, with side letters and texts ready.
import * as z from 'zod/mini';
import { HostFailedSchema } from './failed';
import { OUTCOMES, SOURCE_KINDS } from '../core/model';
import { TASK_CHANGES } from '../core/compare/runs';
import { type Parsed, parseWith } from './parse';

const Text = z.string().check(z.maxLength(100_000));
const Count = z.int().check(z.nonnegative());
const Ratio = z.nullable(z.number().check(z.gte(0)).check(z.lte(1)));
const Num = z.nullable(z.number());

export const CellSchema = z.object({
  outcome: z.enum(OUTCOMES),
  attempts: Count,
  measured: Count,
  passed: Count,
  meanReward: Num,
  passAtK: Ratio,
  /** "passed · 2/3 pass · 0.667" (core/compare/text.ts cellText). */
  text: Text,
});

export const TaskRowSchema = z.object({
  id: Text,
  label: Text,
  change: z.enum(TASK_CHANGES),
  delta: z.number(),
  cells: z.array(z.nullable(CellSchema)),
});

const AggregateSchema = z.object({ tasks: Count, attempts: Count, measured: Count, passed: Count, allInfra: Count, passAt1: Ratio, passAtK: Ratio, meanReward: Num });

export const SideSchema = z.object({
  letter: z.string().check(z.maxLength(8)),
  label: Text,
  kind: z.enum(SOURCE_KINDS),
  mergedFrom: z.array(Text),
  all: AggregateSchema,
  common: AggregateSchema,
  usage: z.object({ inputTokens: Num, outputTokens: Num, cachedTokens: Num, costUsd: Num, durationSec: Num }),
  diff: z.nullable(z.object({ passAt1: Num, passAtK: Num, meanReward: Num })),
  counts: z.record(z.enum(TASK_CHANGES), Count),
});

export const CompareRunsModelSchema = z.object({
  /** The run ids compared, in order (what the panel is for). */
  runIds: z.array(Text).check(z.minLength(1)),
  merge: z.boolean(),
  /** Merging would change something (some sides share kind, dataset, agent and model). */
  canMerge: z.boolean(),
  mergeNote: z.nullable(Text),
  k: z.int().check(z.positive()),
  commonTasks: Count,
  sides: z.array(SideSchema).check(z.minLength(1)),
  tasks: z.array(TaskRowSchema),
  /** Task rows left out of `tasks` to keep the message small. */
  tasksOmitted: Count,
});

export type CompareRunsModel = z.infer<typeof CompareRunsModelSchema>;
export type CompareTaskRow = z.infer<typeof TaskRowSchema>;
export type CompareSideRow = z.infer<typeof SideSchema>;
export type CompareCell = z.infer<typeof CellSchema>;

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), model: CompareRunsModelSchema }),
  /** A run compared is gone (its files were deleted). */
  z.object({ type: z.literal('gone'), runId: Text }),
  /** The host could not answer one of the page's messages (src/protocol/failed.ts). */
  HostFailedSchema,
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('setMerge'), merge: z.boolean() }),
  /** Reveal the task's first attempt on that side in the Runs tree and open its evidence. */
  z.object({ type: z.literal('openCell'), taskId: Text, side: Count }),
  /** Compare the task's first attempt on side `left` with its first attempt on side `right`. */
  z.object({ type: z.literal('compareAttempts'), taskId: Text, left: Count, right: Count }),
  /** What the list shows now (tests, and the host's log). */
  z.object({ type: z.literal('rendered'), rows: Count, firstTask: z.nullable(Text), domRows: Count }),
  z.object({ type: z.literal('cspViolation'), directive: Text, blocked: Text }),
  z.object({ type: z.literal('error'), message: Text }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

export const parseHostMessage = (data: unknown): Parsed<HostMessage> => parseWith(HostMessageSchema, data);
export const parseWebviewMessage = (data: unknown): Parsed<WebviewMessage> => parseWith(WebviewMessageSchema, data);
