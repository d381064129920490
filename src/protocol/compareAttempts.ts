// The ONE definition of the messages between the Compare Attempts panel (host, src/vscode/panels/compareAttemptsPanel.ts)
// and its webview (webview/compareAttempts/main.ts); both validate what they receive. The model is the core's
// TrajectoryAlignment (src/core/compare/align.ts) with each side's attempt, rows as compact [kind, left, right] tuples.
import * as z from 'zod/mini';
import { HostFailedSchema } from './failed';
import { OUTCOMES } from '../core/model';
import { type Parsed, parseWith } from './parse';

const Text = z.string().check(z.maxLength(100_000));
const Count = z.int().check(z.nonnegative());
const Num = z.nullable(z.number());
const Index = z.nullable(z.int().check(z.nonnegative()));

export const StepSchema = z.object({
  index: Count,
  source: z.enum(['system', 'user', 'agent', 'unknown']),
  summary: z.string().check(z.maxLength(2000)),
  tools: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(100)),
  promptTokens: Num,
  completionTokens: Num,
  costUsd: Num,
  durationMs: Num,
});

export const SideSchema = z.object({
  /** "run label · task · #n". */
  title: Text,
  outcome: z.enum(OUTCOMES),
  reward: Num,
  file: z.nullable(Text),
  unavailable: z.nullable(Text),
  steps: z.array(StepSchema),
  promptTokens: Num,
  completionTokens: Num,
  costUsd: Num,
  elapsedMs: Num,
});

export const ROW_KINDS = ['same', 'changed', 'left', 'right'] as const;
export const RowSchema = z.tuple([z.enum(ROW_KINDS), Index, Index]);

export const CompareAttemptsModelSchema = z.object({
  task: Text,
  left: SideSchema,
  right: SideSchema,
  rows: z.array(RowSchema),
  firstDivergence: z.nullable(z.object({ row: Count, left: Index, right: Index })),
  counts: z.object({ same: Count, changed: Count, left: Count, right: Count }),
});

export type CompareAttemptsModel = z.infer<typeof CompareAttemptsModelSchema>;
export type AttemptSide = z.infer<typeof SideSchema>;
export type AlignedRowTuple = z.infer<typeof RowSchema>;

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), model: CompareAttemptsModelSchema }),
  z.object({ type: z.literal('gone'), message: Text }),
  /** The host could not answer one of the page's messages (src/protocol/failed.ts). */
  HostFailedSchema,
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open the verifier outputs of both attempts in VS Code's diff editor. */
  z.object({ type: z.literal('diffVerifier') }),
  /** Open one side's trajectory. */
  z.object({ type: z.literal('openTrajectory'), side: z.enum(['left', 'right']) }),
  /** What the list shows now: rows in all, the selected row (the first divergence after init), rows in the DOM. */
  z.object({ type: z.literal('rendered'), rows: Count, selected: Index, domRows: Count }),
  z.object({ type: z.literal('cspViolation'), directive: Text, blocked: Text }),
  z.object({ type: z.literal('error'), message: Text }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

export const parseHostMessage = (data: unknown): Parsed<HostMessage> => parseWith(HostMessageSchema, data);
export const parseWebviewMessage = (data: unknown): Parsed<WebviewMessage> => parseWith(WebviewMessageSchema, data);
