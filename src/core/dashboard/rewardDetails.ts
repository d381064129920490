// A Harbor trial's verifier/reward-details.json (rewardkit's per-criterion details) flattened into rows with a depth
// for the dashboard: `{ key: Detail | Detail[] | Group }`, a Detail with score, kind (programmatic / llm / agent),
// criteria (name, value, raw, weight, reasoning, error), judge and judge_output and warnings; a Group (kind "group")
// with aggregation, threshold and weighted components whose detail nests. Read leniently: unknown shapes become
// a row with their JSON, nothing throws. All text in it is untrusted (a judge's output).
import type { RewardDetailNode } from '../../protocol/dashboard';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const MAX_NODES = 5000;
const MAX_TEXT = 20_000;

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.slice(0, MAX_TEXT);
  try { return JSON.stringify(v, null, 1).slice(0, MAX_TEXT); } catch { return null; }
}

function joinText(parts: (string | null)[]): string | null {
  const xs = parts.filter((p): p is string => !!p && p.length > 0);
  return xs.length ? xs.join('\n').slice(0, MAX_TEXT) : null;
}

export function rewardDetailNodes(doc: unknown): RewardDetailNode[] {
  const out: RewardDetailNode[] = [];
  const push = (n: RewardDetailNode) => { if (out.length < MAX_NODES) out.push(n); };

  const detail = (name: string, d: unknown, depth: number, weight: number | null): void => {
    if (depth > 30 || out.length >= MAX_NODES) return;
    if (Array.isArray(d)) { d.forEach((x, i) => detail(`${name}[${i}]`, x, depth, weight)); return; }
    if (!isObj(d)) { push({ depth, name, kind: null, score: num(d), weight, value: num(d) === null ? text(d) : null, text: null }); return; }
    const kind = typeof d.kind === 'string' ? d.kind : null;
    if (kind === 'group') {
      const value = [typeof d.aggregation === 'string' ? `aggregation: ${d.aggregation}` : null, num(d.threshold) !== null ? `threshold: ${num(d.threshold)}` : null]
        .filter(Boolean).join(' · ') || null;
      push({ depth, name, kind, score: num(d.score), weight, value, text: null });
      for (const c of Array.isArray(d.components) ? d.components : []) {
        if (!isObj(c)) continue;
        detail(typeof c.name === 'string' ? c.name : '(component)', c.detail, depth + 1, num(c.weight));
      }
      return;
    }
    const judge = isObj(d.judge) && typeof d.judge.model === 'string' ? `judge: ${d.judge.model}` : null;
    const warnings = Array.isArray(d.warnings) && d.warnings.length ? `warnings: ${d.warnings.map((w) => text(w)).join('; ')}` : null;
    push({ depth, name, kind, score: num(d.score), weight, value: judge, text: joinText([text(d.judge_output), warnings]) });
    for (const c of Array.isArray(d.criteria) ? d.criteria : []) {
      if (!isObj(c)) continue;
      const value = [c.value, c.raw].map((v) => (v === undefined ? null : text(v))).filter((v) => v !== null);
      push({
        depth: depth + 1, name: typeof c.name === 'string' ? c.name : '(criterion)', kind: 'criterion',
        score: num(c.value), weight: num(c.weight), value: value.length ? value.join(' · raw ') : null,
        text: joinText([text(c.reasoning), c.error ? `error: ${text(c.error)}` : null]),
      });
    }
  };

  if (isObj(doc)) for (const [k, v] of Object.entries(doc)) detail(k, v, 0, null);
  else detail('(reward details)', doc, 0, null);
  return out;
}
