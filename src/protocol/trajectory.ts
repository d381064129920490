// The ONE definition of the messages between the trajectory editor (host, src/vscode/editors/trajectoryEditor.ts) and
// its webview (webview/trajectory/main.ts). Both sides validate every message they receive with these zod schemas; a
// message that does not parse is dropped and logged, never acted on. The webview names steps, subagents and media by
// index only — never a path — so it can only ever get files the trajectory itself names.
import * as z from 'zod/mini';
import { HostFailedSchema } from './failed';
import { parseWith } from './parse';
import type { OutlineHeader, OutlineRow } from '../core/trajectory/outline';
import type { StepView } from '../core/trajectory/types';

const Text = z.string();
const Short = z.string().check(z.maxLength(10_000));
const Count = z.int().check(z.nonnegative());
const N = z.nullable(z.number());

const TotalsSchema = z.object({ prompt_tokens: N, completion_tokens: N, cached_tokens: N, cost_usd: N });
const ProblemSchema = z.object({ file: Text, pointer: Text, severity: z.enum(['error', 'warning', 'info']), message: Text });

export const OutlineRowSchema = z.object({
  i: Count, stepId: N, source: z.enum(['system', 'user', 'agent', 'unknown']), summary: Text, timestamp: z.nullable(Text),
  durationMs: N, completionTokens: N, flags: Count,
});

export const HeaderSchema = z.object({
  file: Text, pointer: Text, schemaVersion: z.nullable(Text), unreadable: z.nullable(Text),
  notAtif: z.nullable(z.object({ looksLike: Text, detail: Text })), taskLevel: z.boolean(),
  agent: z.object({ name: z.nullable(Text), version: z.nullable(Text), model: z.nullable(Text), toolDefinitions: Count }),
  sessionId: z.nullable(Text), trajectoryId: z.nullable(Text), notes: z.nullable(Text), finalMetrics: z.nullable(Text),
  totals: TotalsSchema, totalsWithSubagents: TotalsSchema,
  disagreements: z.array(z.object({ field: z.enum(['prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost_usd', 'steps']), recorded: z.number(), recount: z.number(), recountWithSubagents: z.number() })),
  files: z.array(z.object({ path: Text, firstStep: Count, steps: Count, foldedCopies: Count })),
  subagents: z.array(z.object({ kind: Text, ref: Text, path: z.nullable(Text), step: N, agent: z.nullable(Text), steps: Count, unresolved: z.nullable(Text), totals: TotalsSchema })),
  toolCalls: Count, paired: Count, elapsedMs: N, problems: z.array(ProblemSchema), moreProblems: Count,
});

/** The attempt a trajectory was opened from (the Runs tree), with the links it offers. */
export const AttemptContextSchema = z.object({
  run: Short, task: Short, attempt: Short, outcome: Short, reward: z.nullable(z.number()),
  links: z.array(z.object({ id: z.enum(['testStdout', 'verifier']), label: Short })),
});

const PartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: Text }),
  z.object({ kind: z.literal('image'), mediaType: Text, path: Text, durationSec: z.optional(z.number()) }),
  z.object({ kind: z.literal('audio'), mediaType: Text, path: Text, durationSec: z.optional(z.number()) }),
  z.object({ kind: z.literal('unsupported'), type: Text }),
]);
const ResultSchema = z.object({ index: Count, sourceCallId: z.nullable(Text), parts: z.array(PartSchema), extra: z.nullable(Text), subagents: z.array(Count) });

export const StepSchema = z.object({
  index: Count, file: Count, pointer: Text, stepId: N, source: z.enum(['system', 'user', 'agent', 'unknown']),
  timestamp: z.nullable(Text), durationMs: N, modelName: z.nullable(Text), reasoningEffort: z.nullable(Text),
  message: z.array(PartSchema), reasoning: z.nullable(Text),
  toolCalls: z.array(z.object({ id: Text, name: Text, args: Text, extra: z.nullable(Text), results: z.array(ResultSchema) })),
  sharedResults: z.array(ResultSchema),
  metrics: z.nullable(z.object({ prompt_tokens: N, completion_tokens: N, cached_tokens: N, reasoning_tokens: N, cost_usd: N, extra: z.nullable(Text) })),
  llmCallCount: N, copied: z.boolean(), contextBoundary: z.nullable(z.object({ type: Text, boundary: Text })),
  logprobs: z.nullable(z.object({ count: Count, mean: z.number(), min: z.number(), perplexity: z.number(), below50: z.number(), below10: z.number(), histogram: z.array(Count) })),
  hasTokenIds: z.boolean(), extra: z.nullable(Text), summary: Text,
});

/** Per-token view of a step: completion token ids (when recorded) and their log-probabilities. */
export const TokensSchema = z.object({ ids: z.nullable(z.array(z.number())), logprobs: z.array(z.number()) });

/** Reading progress of the trajectory's own file; null once everything is read (continuations, subagents, recount). */
export const LoadingSchema = z.nullable(z.object({ steps: Count, bytesRead: Count, bytesTotal: Count }));

/** What the user is looking at in the editor (top trajectory): kept by the host per file (workspace state) and handed
 * back when the editor opens again, so a window reload brings back the same step, search, expanded and raw state. */
export const ViewStateSchema = z.object({ selected: z.nullable(Count), query: Short, expandAll: z.nullable(z.boolean()), raw: z.boolean() });
export type TrajectoryViewState = z.infer<typeof ViewStateSchema>;

/** Host → webview. */
export const TrajectoryHostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'), header: HeaderSchema, rows: z.array(OutlineRowSchema), attempt: z.nullable(AttemptContextSchema),
    /** Breadcrumb of nested subagent views (empty at the top). */
    trail: z.array(Short), focus: z.nullable(Count), loading: LoadingSchema,
    /** Rows already read that follow in `rows` messages (a long outline is sent in slices). */
    more: Count,
    /** The view state to restore (the first init of an editor whose file was open before), else null. */
    view: z.nullable(ViewStateSchema),
  }),
  /** More rows of the top trajectory as they are read, or the next slice of a long outline (appended at `from`). */
  z.object({ type: z.literal('rows'), from: Count, rows: z.array(OutlineRowSchema), loading: LoadingSchema, more: Count }),
  /** The header again (totals, recount, subagents, problems), once everything is read. */
  z.object({ type: z.literal('header'), header: HeaderSchema, loading: LoadingSchema }),
  /** A step's full content; media: webview URIs of its image / audio parts by "m<part>" / "r<call>.<result>.<part>" key, null when not loadable. */
  z.object({ type: z.literal('step'), step: StepSchema, media: z.record(z.string(), z.nullable(Text)), refused: z.record(z.string(), Short), tokens: z.nullable(TokensSchema) }),
  /** `partial`: the trajectory is still being read; the search covered the steps read so far. */
  z.object({ type: z.literal('searchResult'), query: Short, total: Count, steps: z.array(z.object({ index: Count, count: Count, fields: z.array(z.enum(['message', 'reasoning', 'tool', 'observation'])) })), ms: z.number(), partial: z.boolean() }),
  /** The step's JSON as written (raw view), or the document's text for a not-ATIF file. */
  z.object({ type: z.literal('raw'), index: z.nullable(Count), text: Text, totalChars: Count }),
  z.object({ type: z.literal('focus'), index: Count }),
  /** The host could not answer one of the page's messages (src/protocol/failed.ts). */
  HostFailedSchema,
]);
export type TrajectoryHostMessage = z.infer<typeof TrajectoryHostMessageSchema>;

/** Webview → host. */
export const TrajectoryWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('getStep'), index: Count }),
  z.object({ type: z.literal('search'), query: Short }),
  z.object({ type: z.literal('getRaw'), index: z.nullable(Count) }),
  z.object({ type: z.literal('copyStep'), index: Count }),
  z.object({ type: z.literal('copyLink'), index: z.nullable(Count) }),
  z.object({ type: z.literal('openSubagent'), index: Count }),
  z.object({ type: z.literal('back') }),
  z.object({ type: z.literal('openLink'), id: z.enum(['testStdout', 'verifier']) }),
  z.object({ type: z.literal('openAsText') }),
  z.object({ type: z.literal('openProblem'), index: Count }),
  /** The view state changed (sent as it changes; the host keeps the last one of the top trajectory). */
  z.object({ type: z.literal('viewState'), state: ViewStateSchema }),
  /** What the page shows now (tests): the selected step, rendered step rows, DOM nodes in the list. */
  z.object({ type: z.literal('rendered'), selected: z.nullable(Count), rows: Count, domNodes: Count, view: z.enum(['timeline', 'raw']) }),
  z.object({ type: z.literal('cspViolation'), directive: Short, blocked: Short }),
  z.object({ type: z.literal('error'), message: Short }),
]);
export type TrajectoryWebviewMessage = z.infer<typeof TrajectoryWebviewMessageSchema>;

export const parseTrajectoryHostMessage = (data: unknown) => parseWith(TrajectoryHostMessageSchema, data);
export const parseTrajectoryWebviewMessage = (data: unknown) => parseWith(TrajectoryWebviewMessageSchema, data);

// The core's view-model types and these schemas must stay the same shape (checked at compile time).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const SHAPES_MATCH: [Same<OutlineRow, z.infer<typeof OutlineRowSchema>>, Same<OutlineHeader, z.infer<typeof HeaderSchema>>, Same<StepView, z.infer<typeof StepSchema>>] = [true, true, true];
