// The bytes of a summary: stable key order (the documented layout; unknown keys after the known ones), 2-space indent,
// trailing newline, UTF-8 (non-ASCII kept as is). Rewards are written as floats the way Python writes them (`1.0`,
// not `1`), so a document matches one written by NeMo Gym's own writer byte for byte. The CLI and the VS Code command
// both write exactly serializeSummary(document).
import { FILE_KEYS, REPEAT_KEYS, TOP_KEYS, type RunSummaryDocument } from '../schemas/runSummary';

const DATASET_KEYS = ['source', 'name', 'version', 'folder', 'digests'];
const TASK_KEYS = ['task_id', 'task_index', 'repeats'];
const INPUT_KEYS = ['digests', 'metadata'];
const FLOAT_KEYS = new Set(['reward']);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function ordered(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined) out[k] = o[k];
  for (const k of Object.keys(o)) if (!(k in out) && o[k] !== undefined) out[k] = o[k];
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function orderDocument(doc: RunSummaryDocument): Record<string, unknown> {
  const top = ordered(doc as Record<string, unknown>, TOP_KEYS);
  if (isObj(top.dataset)) top.dataset = ordered(top.dataset, DATASET_KEYS);
  if (isObj(top.files)) top.files = ordered(top.files, FILE_KEYS);
  if (Array.isArray(top.tasks)) {
    top.tasks = top.tasks.map((t) => {
      if (!isObj(t)) return t;
      const task = ordered(t, TASK_KEYS);
      if (Array.isArray(task.repeats)) {
        task.repeats = task.repeats.map((r) => {
          if (!isObj(r)) return r;
          const rep = ordered(r, REPEAT_KEYS);
          if (isObj(rep.input)) rep.input = ordered(rep.input, INPUT_KEYS);
          return rep;
        });
      }
      return task;
    });
  }
  return top;
}

/** Python's float repr for the common cases (`1.0`, `0.25`, `1e-07`). */
export function pyFloat(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  const s = String(x);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function write(v: unknown, indent: string, key: string | undefined, out: string[]): void {
  if (v === null || v === undefined) { out.push('null'); return; }
  if (typeof v === 'number') { out.push(key !== undefined && FLOAT_KEYS.has(key) ? pyFloat(v) : Number.isFinite(v) ? String(v) : 'null'); return; }
  if (typeof v === 'string' || typeof v === 'boolean') { out.push(JSON.stringify(v)); return; }
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (!v.length) { out.push('[]'); return; }
    out.push('[\n');
    v.forEach((item, i) => {
      out.push(inner);
      write(item, inner, undefined, out);
      out.push(i < v.length - 1 ? ',\n' : '\n');
    });
    out.push(`${indent}]`);
    return;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (!entries.length) { out.push('{}'); return; }
  out.push('{\n');
  entries.forEach(([k, x], i) => {
    out.push(`${inner}${JSON.stringify(k)}: `);
    write(x, inner, k, out);
    out.push(i < entries.length - 1 ? ',\n' : '\n');
  });
  out.push(`${indent}}`);
}

export function serializeSummary(doc: RunSummaryDocument): string {
  const out: string[] = [];
  write(orderDocument(doc) as Json, '', undefined, out);
  out.push('\n');
  return out.join('');
}
