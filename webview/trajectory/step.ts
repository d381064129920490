// Renders one step's full content in the detail pane: message (text, images, audio), reasoning (collapsed), tool
// calls each paired with its observation, the shared output, subagent links, metrics, logprobs. Text only, through
// textContent; long text is cut with a "show all" button (nothing silently truncated).
import type { TrajectoryHostMessage } from '../../src/protocol/trajectory';
import { button, codicon, duration, el, highlighted, money, num } from './dom';
import { plural } from '../../src/core/format';

type StepMsg = Extract<TrajectoryHostMessage, { type: 'step' }>;
type Step = StepMsg['step'];
type Part = Step['message'][number];
type Result = Step['sharedResults'][number];

export const CUT_CHARS = 4000;

export interface StepActions {
  openSubagent(index: number): void;
  query: string;
  expandAll: boolean | null;
  subagentLabel(index: number): string;
}

function longText(text: string, cls: string, query: string): HTMLElement {
  const box = el('div', 'long');
  const pre = el('pre', cls);
  box.append(pre);
  if (text.length <= CUT_CHARS) { highlighted(pre, text, query); return box; }
  highlighted(pre, text.slice(0, CUT_CHARS), query);
  const more = el('div', 'cut');
  more.append(el('span', 'note', `Showing ${CUT_CHARS.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters. `));
  more.append(button('Show all', 'unfold', () => { pre.replaceChildren(); highlighted(pre, text, query); more.remove(); }, { secondary: true }));
  box.append(more);
  return box;
}

function parts(list: Part[], m: Pick<StepMsg, 'media' | 'refused'>, keyPrefix: string, query: string): HTMLElement {
  const media = m.media;
  const box = el('div', 'parts');
  if (list.length === 0) box.append(el('span', 'empty', '(empty)'));
  list.forEach((p, i) => {
    if (p.kind === 'text') { box.append(longText(p.text, 'text', query)); return; }
    if (p.kind === 'unsupported') { box.append(el('div', 'unsupported', `Unsupported content part (${p.type}) — not shown.`)); return; }
    const uri = media[`${keyPrefix}${i}`] ?? null;
    const fig = el('figure', `media ${p.kind}`);
    if (uri && p.kind === 'image') {
      const img = el('img');
      img.src = uri; img.alt = p.path; img.loading = 'lazy';
      fig.append(img);
    } else if (uri && p.kind === 'audio') {
      const a = el('audio');
      a.controls = true; a.src = uri;
      fig.append(a);
    } else {
      fig.classList.add('refused');
      fig.append(el('div', 'banner error', `${p.kind === 'image' ? 'Image' : 'Audio'} not loaded: ${m.refused[`${keyPrefix}${i}`] ?? 'only files inside the trajectory\'s folder are shown'}.`));
    }
    const cap = el('figcaption', '', `${p.kind} · ${p.mediaType || 'unknown type'} · ${p.path}${p.durationSec !== undefined ? ` · ${p.durationSec}s` : ''}`);
    fig.append(cap);
    box.append(fig);
  });
  return box;
}

function details(summary: string | HTMLElement, body: HTMLElement, open: boolean, cls = ''): HTMLDetailsElement {
  const d = el('details', cls);
  d.open = open;
  const s = el('summary');
  s.append(summary);
  d.append(s, body);
  return d;
}

function result(r: Result, media: Pick<StepMsg, 'media' | 'refused'>, key: string, a: StepActions): HTMLElement {
  const box = el('div', 'result');
  box.append(parts(r.parts, media, key, a.query));
  for (const sub of r.subagents) {
    const link = button(a.subagentLabel(sub), 'type-hierarchy-sub', () => a.openSubagent(sub), { secondary: true });
    link.classList.add('subagent-link');
    link.dataset.subagent = String(sub);
    box.append(link);
  }
  if (r.extra) box.append(details('result extra', el('pre', 'json', r.extra), a.expandAll === true));
  return box;
}

export function renderStep(m: StepMsg, a: StepActions): HTMLElement {
  const s = m.step;
  const root = el('article', `step src-${s.source}${s.copied ? ' copied' : ''}`);
  root.dataset.index = String(s.index);
  const title = el('h2', 'step-title');
  title.append(el('span', '', `Step #${s.index + 1}`), el('span', 'src', s.source));
  if (s.stepId !== null && s.stepId !== s.index + 1) title.append(el('span', 'note', `step_id ${s.stepId}`));
  if (s.modelName) title.append(el('span', 'note', s.modelName));
  if (s.reasoningEffort) title.append(el('span', 'note', `effort ${s.reasoningEffort}`));
  title.append(el('span', 'note', s.timestamp ?? 'no timestamp'), el('span', 'note', `+${duration(s.durationMs)}`));
  root.append(title);
  if (s.copied) root.append(el('div', 'banner copied', 'Copied context: this step was copied from an earlier trajectory; it is not counted again in the totals.'));
  if (s.contextBoundary) {
    const b = s.contextBoundary;
    const what = b.boundary === 'replace' ? 'From here on the agent\'s context is this step\'s output plus later turns only.'
      : b.boundary === 'truncate' ? 'Earlier turns were cut from the agent\'s context here.' : 'Content was added to the agent\'s context here.';
    root.append(el('div', 'banner boundary', `Context ${b.type} (${b.boundary}). ${what}`));
  }
  root.append(el('h3', '', 'Message'), parts(s.message, m, 'm', a.query));
  if (s.reasoning) root.append(details('Reasoning', longText(s.reasoning, 'reasoning', a.query), a.expandAll === true, 'reasoning'));
  s.toolCalls.forEach((c, ci) => {
    const body = el('div', 'call');
    body.append(longText(c.args, 'json args', a.query));
    if (c.extra) body.append(details('call extra', el('pre', 'json', c.extra), a.expandAll === true));
    if (c.results.length === 0) body.append(el('div', 'note', 'No observation names this call.'));
    c.results.forEach((r, ri) => {
      body.append(el('div', 'obs-label', `observation ${r.index + 1}`), result(r, m, `r${ci}.${ri}.`, a));
    });
    const sum = el('span');
    sum.append(codicon('tools'), el('strong', '', ` ${c.name || '(no name)'}`), el('span', 'note', ` ${c.id}`));
    if (c.results.length) sum.append(el('span', 'paired', ' · paired'));
    root.append(details(sum, body, a.expandAll !== false, 'tool-call'));
  });
  if (s.sharedResults.length) {
    root.append(el('h3', '', s.toolCalls.length ? 'Shared output (no call id)' : 'Observation'));
    s.sharedResults.forEach((r, ri) => root.append(result(r, m, `s${ri}.`, a)));
  }
  if (s.llmCallCount === 0) root.append(el('div', 'note', 'No model call (llm_call_count 0).'));
  if (s.metrics) {
    const t = el('dl', 'metrics');
    const kv = (k: string, v: string) => { const d = el('div', 'kv'); d.append(el('dt', '', k), el('dd', '', v)); t.append(d); };
    kv('prompt', num(s.metrics.prompt_tokens)); kv('completion', num(s.metrics.completion_tokens));
    kv('cached', num(s.metrics.cached_tokens)); kv('reasoning', num(s.metrics.reasoning_tokens)); kv('cost', money(s.metrics.cost_usd));
    if (s.llmCallCount !== null && s.llmCallCount > 0) kv('model calls', String(s.llmCallCount));
    root.append(el('h3', '', 'Metrics'), t);
    if (s.metrics.extra) root.append(details('metrics extra', el('pre', 'json', s.metrics.extra), a.expandAll === true));
  }
  if (s.logprobs) root.append(logprobBlock(m));
  if (s.extra) root.append(details('step extra', el('pre', 'json', s.extra), a.expandAll === true));
  return root;
}

function logprobBlock(m: StepMsg): HTMLElement {
  const lp = m.step.logprobs!;
  const box = el('section', 'logprobs');
  box.append(el('h3', '', 'Log-probabilities'));
  box.append(el('div', 'note', `${plural(lp.count, 'token')} · mean ${lp.mean.toFixed(3)} · min ${lp.min.toFixed(3)} · perplexity ${lp.perplexity.toFixed(3)} · p<0.5: ${(lp.below50 * 100).toFixed(1)}% · p<0.1: ${(lp.below10 * 100).toFixed(1)}%`));
  const hist = el('div', 'histogram');
  hist.setAttribute('aria-label', 'token probability histogram');
  const max = Math.max(1, ...lp.histogram);
  lp.histogram.forEach((n, i) => {
    const bar = el('div', 'bar');
    bar.style.height = `${Math.round((n / max) * 100)}%`;
    bar.title = `p ${i / 10}–${(i + 1) / 10}: ${plural(n, 'token')}`;
    hist.append(bar);
  });
  box.append(hist);
  if (m.tokens) {
    const tokens = el('div', 'tokens');
    tokens.setAttribute('aria-label', 'tokens shaded by log-probability');
    m.tokens.logprobs.slice(0, 20_000).forEach((l, i) => {
      const p = Math.exp(Math.min(0, l));
      const t = el('span', 'tok', m.tokens!.ids ? String(m.tokens!.ids[i] ?? '?') : String(i));
      t.style.setProperty('--improb', String(Math.round((1 - p) * 100) / 100));
      t.title = `token ${i}${m.tokens!.ids ? ` · id ${m.tokens!.ids[i]}` : ''} · logprob ${l.toFixed(4)} · p ${p.toFixed(4)}`;
      tokens.append(t);
    });
    const d = details('Per-token view (darker = less likely)', tokens, false, 'token-view');
    box.append(d);
  }
  return box;
}
