// One ATIF step read leniently into a StepView: what parses is shown, what does not becomes a Problem with its JSON
// pointer. Tool calls are paired with their observation results by source_call_id; results without one (a batch's
// shared output) or naming no call of the step are kept as the step's shared results.
import type { ContextBoundary, LogprobSummary, PartView, Problem, ResultView, StepMetricsView, StepView, ToolCallView } from './types';
import { isObj, num, oneLine, own, pointer, pretty, prettyExtra, str, type Obj } from './json';

/** A subagent reference found in a step, before it is resolved. */
export interface RawSubagentRef {
  step: number;
  resultIndex: number;
  pointer: string;
  trajectoryId: string | null;
  trajectoryPath: string | null;
  sessionId: string | null;
}

export interface StepContext {
  file: string;
  fileIndex: number;
  /** Pointer of the steps array ("/steps", or "/subagent_trajectories/0/steps" for an embedded one). */
  base: string;
  problems: Problem[];
  refs: RawSubagentRef[];
  /** Called for each ref found; returns the index the SubagentView will get. */
  addRef(ref: RawSubagentRef): number;
}

const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;

export function readParts(v: unknown, at: string, ctx: StepContext): PartView[] {
  if (typeof v === 'string') return v === '' ? [] : [{ kind: 'text', text: v }];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    problem(ctx, at, 'error', `expected text or a list of content parts, found ${typeName(v)}`);
    return [{ kind: 'text', text: pretty(v) }];
  }
  const out: PartView[] = [];
  v.forEach((p, i) => {
    const here = `${at}${pointer(i)}`;
    if (!isObj(p)) { problem(ctx, here, 'error', `content part is ${typeName(p)}, not an object`); return; }
    const type = str(own(p, 'type'));
    if (type === 'text') {
      const text = str(own(p, 'text'));
      if (text === null) problem(ctx, `${here}/text`, 'error', 'text part without text');
      else out.push({ kind: 'text', text });
      return;
    }
    if (type === 'image' || type === 'audio') {
      const source = own(p, 'source');
      const path = isObj(source) ? str(own(source, 'path')) : null;
      if (!isObj(source) || path === null) { problem(ctx, `${here}/source`, 'error', `${type} part without source.path`); return; }
      const part: PartView = { kind: type, mediaType: str(own(source, 'media_type')) ?? '', path };
      const d = num(own(source, 'duration_sec'));
      if (d !== null) part.durationSec = d;
      out.push(part);
      return;
    }
    problem(ctx, `${here}/type`, 'warning', `unsupported content part type ${JSON.stringify(type ?? typeName(own(p, 'type')))}`);
    out.push({ kind: 'unsupported', type: type ?? typeName(own(p, 'type')) });
  });
  return out;
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function problem(ctx: StepContext, at: string, severity: Problem['severity'], message: string): void {
  ctx.problems.push({ file: ctx.file, pointer: at, severity, message });
}

export function logprobSummary(v: unknown): LogprobSummary | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  let n = 0; let sum = 0; let min = 0; let b50 = 0; let b10 = 0;
  const histogram = new Array<number>(10).fill(0);
  for (const x of v) {
    if (typeof x !== 'number' || !Number.isFinite(x)) continue;
    const lp = Math.min(0, x);
    n++; sum += lp;
    if (lp < min) min = lp;
    const p = Math.exp(lp);
    if (p < 0.5) b50++;
    if (p < 0.1) b10++;
    histogram[Math.min(9, Math.floor(p * 10))]++;
  }
  if (n === 0) return null;
  const mean = sum / n;
  return { count: n, mean, min, perplexity: Math.exp(-mean), below50: b50 / n, below10: b10 / n, histogram };
}

function readMetrics(m: Obj, at: string, ctx: StepContext): StepMetricsView {
  const count = (key: string): number | null => {
    const v = own(m, key);
    if (v === undefined || v === null) return null;
    const n = num(v);
    if (n === null || n < 0) { problem(ctx, `${at}/${key}`, 'warning', `${key} is not a non-negative number`); return null; }
    return n;
  };
  const extra = own(m, 'extra');
  const reasoning = isObj(extra) ? num(own(extra, 'reasoning_tokens')) : null;
  return {
    prompt_tokens: count('prompt_tokens'),
    completion_tokens: count('completion_tokens'),
    cached_tokens: count('cached_tokens'),
    reasoning_tokens: reasoning,
    cost_usd: num(own(m, 'cost_usd')),
    extra: prettyExtra(extra),
  };
}

function readResult(r: unknown, index: number, at: string, stepIndex: number, ctx: StepContext): ResultView | null {
  if (!isObj(r)) { problem(ctx, at, 'error', `observation result is ${typeName(r)}, not an object`); return null; }
  const subagents: number[] = [];
  const refs = own(r, 'subagent_trajectory_ref');
  if (Array.isArray(refs)) {
    refs.forEach((ref, j) => {
      const here = `${at}/subagent_trajectory_ref${pointer(j)}`;
      if (!isObj(ref)) { problem(ctx, here, 'error', 'subagent_trajectory_ref entry is not an object'); return; }
      const raw: RawSubagentRef = {
        step: stepIndex, resultIndex: index, pointer: here,
        trajectoryId: str(own(ref, 'trajectory_id')) || null,
        trajectoryPath: str(own(ref, 'trajectory_path')) || null,
        sessionId: str(own(ref, 'session_id')) || null,
      };
      if (!raw.trajectoryId && !raw.trajectoryPath && !raw.sessionId) {
        problem(ctx, here, 'error', 'subagent_trajectory_ref has no trajectory_path, trajectory_id or session_id');
        return;
      }
      subagents.push(ctx.addRef(raw));
    });
  } else if (refs !== undefined && refs !== null) {
    problem(ctx, `${at}/subagent_trajectory_ref`, 'error', 'subagent_trajectory_ref is not a list');
  }
  const sc = own(r, 'source_call_id');
  return {
    index,
    sourceCallId: typeof sc === 'string' && sc !== '' ? sc : null,
    parts: readParts(own(r, 'content'), `${at}/content`, ctx),
    extra: prettyExtra(own(r, 'extra')),
    subagents,
  };
}

function contextBoundary(extra: unknown): ContextBoundary | null {
  if (!isObj(extra)) return null;
  const cm = own(extra, 'context_management');
  if (!isObj(cm)) return null;
  return { type: str(own(cm, 'type')) ?? 'unknown', boundary: str(own(cm, 'boundary')) ?? 'unknown' };
}

/** Reads the step at `position` of its file; `index` is its place on the joined timeline. */
export function readStep(raw: unknown, position: number, index: number, ctx: StepContext): StepView {
  const at = `${ctx.base}${pointer(position)}`;
  const s: Obj = isObj(raw) ? raw : {};
  if (!isObj(raw)) problem(ctx, at, 'error', `step is ${typeName(raw)}, not an object`);
  const stepId = num(own(s, 'step_id'));
  if (stepId === null) problem(ctx, `${at}/step_id`, 'error', 'step_id is missing or not a number');
  else if (stepId !== position + 1) problem(ctx, `${at}/step_id`, 'warning', `step_id ${stepId} is out of sequence (expected ${position + 1})`);
  const src = own(s, 'source');
  const source = src === 'system' || src === 'user' || src === 'agent' ? src : 'unknown';
  if (source === 'unknown') problem(ctx, `${at}/source`, 'error', `source ${JSON.stringify(src ?? null)} is not system, user or agent`);
  let timestamp = str(own(s, 'timestamp'));
  if (timestamp !== null && Number.isNaN(Date.parse(timestamp))) {
    problem(ctx, `${at}/timestamp`, 'warning', `timestamp ${JSON.stringify(oneLine(timestamp, 60))} is not ISO 8601`);
    timestamp = null;
  }
  if (source !== 'agent' && source !== 'unknown') {
    for (const k of AGENT_ONLY) {
      const v = own(s, k);
      if (v !== undefined && v !== null) problem(ctx, `${at}/${k}`, 'warning', `${k} is only allowed on agent steps`);
    }
  }
  const message = readParts(own(s, 'message'), `${at}/message`, ctx);
  if (own(s, 'message') === undefined) problem(ctx, `${at}/message`, 'error', 'message is missing');
  const reasoningRaw = own(s, 'reasoning_content');
  const reasoning = typeof reasoningRaw === 'string' && reasoningRaw !== '' ? reasoningRaw : null;

  const toolCalls: ToolCallView[] = [];
  const byId = new Map<string, ToolCallView>();
  const calls = own(s, 'tool_calls');
  if (Array.isArray(calls)) {
    calls.forEach((c, i) => {
      const here = `${at}/tool_calls${pointer(i)}`;
      if (!isObj(c)) { problem(ctx, here, 'error', 'tool call is not an object'); return; }
      const id = str(own(c, 'tool_call_id')) ?? '';
      if (!id) problem(ctx, `${here}/tool_call_id`, 'error', 'tool_call_id is missing');
      const name = str(own(c, 'function_name')) ?? '';
      if (!name) problem(ctx, `${here}/function_name`, 'error', 'function_name is missing');
      const args = own(c, 'arguments');
      if (!isObj(args)) problem(ctx, `${here}/arguments`, 'warning', 'arguments is not an object');
      const view: ToolCallView = { id, name, args: pretty(args ?? {}), extra: prettyExtra(own(c, 'extra')), results: [] };
      if (id && byId.has(id)) problem(ctx, `${here}/tool_call_id`, 'warning', `tool_call_id ${JSON.stringify(oneLine(id, 60))} repeats an earlier call of this step`);
      else if (id) byId.set(id, view);
      toolCalls.push(view);
    });
  } else if (calls !== undefined && calls !== null) {
    problem(ctx, `${at}/tool_calls`, 'error', 'tool_calls is not a list');
  }

  const sharedResults: ResultView[] = [];
  const obs = own(s, 'observation');
  if (isObj(obs)) {
    const results = own(obs, 'results');
    if (Array.isArray(results)) {
      results.forEach((r, i) => {
        const here = `${at}/observation/results${pointer(i)}`;
        const rv = readResult(r, i, here, index, ctx);
        if (!rv) return;
        const call = rv.sourceCallId ? byId.get(rv.sourceCallId) : undefined;
        if (call) call.results.push(rv);
        else {
          if (rv.sourceCallId) problem(ctx, `${here}/source_call_id`, 'warning', `source_call_id ${JSON.stringify(oneLine(rv.sourceCallId, 60))} names no tool call of this step`);
          sharedResults.push(rv);
        }
      });
    } else problem(ctx, `${at}/observation/results`, 'error', 'observation.results is not a list');
  } else if (obs !== undefined && obs !== null) {
    problem(ctx, `${at}/observation`, 'error', 'observation is not an object');
  }

  const m = own(s, 'metrics');
  const metrics = isObj(m) ? readMetrics(m, `${at}/metrics`, ctx) : null;
  const llm = own(s, 'llm_call_count');
  const llmCallCount = llm === undefined || llm === null ? null : num(llm);
  if (llmCallCount === 0 && (metrics || reasoning)) problem(ctx, `${at}/llm_call_count`, 'warning', 'llm_call_count 0 (no model call) but the step has metrics or reasoning');
  const extra = own(s, 'extra');
  const effort = own(s, 'reasoning_effort');
  const view: StepView = {
    index,
    file: ctx.fileIndex,
    pointer: at,
    stepId,
    source,
    timestamp,
    durationMs: null,
    modelName: str(own(s, 'model_name')),
    reasoningEffort: typeof effort === 'string' || typeof effort === 'number' ? String(effort) : null,
    message,
    reasoning,
    toolCalls,
    sharedResults,
    metrics,
    llmCallCount,
    copied: own(s, 'is_copied_context') === true,
    contextBoundary: source === 'system' ? contextBoundary(extra) : null,
    logprobs: isObj(m) ? logprobSummary(own(m, 'logprobs')) : null,
    hasTokenIds: isObj(m) && (Array.isArray(own(m, 'completion_token_ids')) || Array.isArray(own(m, 'prompt_token_ids'))),
    extra: prettyExtra(extra),
    summary: '',
  };
  view.summary = stepSummary(view);
  return view;
}

function stepSummary(s: StepView): string {
  if (s.contextBoundary) return `context ${s.contextBoundary.type} (${s.contextBoundary.boundary})`;
  const text = s.message.find((p) => p.kind === 'text');
  if (text && text.kind === 'text' && text.text.trim()) return oneLine(text.text);
  if (s.toolCalls.length) return oneLine(s.toolCalls.map((c) => c.name).join(', '));
  const media = s.message.find((p) => p.kind !== 'text');
  if (media) return `(${media.kind})`;
  const out = s.sharedResults[0]?.parts.find((p) => p.kind === 'text');
  if (out && out.kind === 'text') return oneLine(out.text);
  return '(empty message)';
}

/** The text of a step's parts (for the searchable text and the copy). */
export function partsText(parts: PartView[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'unsupported' ? '' : p.path)).join('\n');
}
