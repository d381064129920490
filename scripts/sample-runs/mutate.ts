// Mutations of one file of a generated run, for fuzz tests: truncate, flip bytes, insert a garbage line, duplicate a
// line, give one JSON value the wrong type, empty the file, or delete it. Deterministic in its parameters, so a
// failing fast-check case shrinks and replays.
import type { MemFs } from './memFs';

export const MUTATIONS = ['truncate', 'flip', 'garbage-line', 'duplicate-line', 'wrong-type', 'empty', 'delete'] as const;
export type MutationKind = (typeof MUTATIONS)[number];

export interface Mutation {
  kind: MutationKind;
  /** Position / choice parameters. */
  a: number;
  b: number;
  /** Text of an inserted garbage line. */
  junk: string;
  /** A replacement value for 'wrong-type'. */
  value: unknown;
}

export interface Applied {
  /** 1-based line number of an inserted garbage line that is not valid JSON (when that is what was done). */
  garbageLine?: number;
  deleted?: boolean;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A value of another JSON type than `orig`. */
function otherType(orig: unknown, candidate: unknown): unknown {
  if (typeOf(candidate) !== typeOf(orig) && candidate !== undefined) return candidate;
  switch (typeOf(orig)) {
    case 'string': return 12345;
    case 'number': return 'not a number';
    case 'boolean': return 'yes';
    case 'array': return { not: 'a list' };
    case 'object': return ['not', 'an', 'object'];
    default: return { was: 'null' };
  }
}

function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  if (depth > 6 || out.length > 400) return out;
  if (Array.isArray(v)) v.forEach((x, i) => { out.push([...prefix, i]); paths(x, [...prefix, i], out, depth + 1); });
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push([...prefix, k]); paths(x, [...prefix, k], out, depth + 1); }
  return out;
}

function setAt(root: unknown, p: (string | number)[], value: unknown): unknown {
  if (!p.length) return value;
  let cur = root as Record<string | number, unknown>;
  for (let i = 0; i < p.length - 1; i++) cur = cur[p[i]] as Record<string | number, unknown>;
  const last = p[p.length - 1];
  cur[last] = otherType(cur[last], value);
  return root;
}

function isJsonLine(s: string): boolean {
  try { JSON.parse(s); return true; } catch { return false; }
}

/** Gives one value of a JSON text the wrong type; null when the text is not JSON. */
function wrongType(text: string, a: number, value: unknown): string | null {
  let doc: unknown;
  try { doc = JSON.parse(text); } catch { return null; }
  const all = paths(doc);
  if (!all.length) return JSON.stringify(otherType(doc, value));
  return JSON.stringify(setAt(doc, all[a % all.length], value));
}

export function applyMutation(fs: MemFs, file: string, m: Mutation): Applied {
  const entry = fs.files.get(file);
  if (!entry) return {};
  // A copy: never change the bytes in place (a clone shares them with the MemFs it was cloned from).
  const data = new Uint8Array(entry.data);
  const put = (bytes: Uint8Array | string) => fs.put(file, bytes, entry.mtimeMs);
  switch (m.kind) {
    case 'delete':
      fs.remove(file);
      return { deleted: true };
    case 'empty':
      put(new Uint8Array(0));
      return {};
    case 'truncate':
      put(data.slice(0, data.length ? m.a % data.length : 0));
      return {};
    case 'flip': {
      for (let i = 0; i < 1 + (m.b % 4) && data.length; i++) data[(m.a + i * 7919) % data.length] ^= 1 << ((m.b + i) % 8);
      put(data);
      return {};
    }
    case 'garbage-line':
    case 'duplicate-line': {
      const text = dec.decode(data);
      const ls = text.split('\n');
      const endsNl = text.endsWith('\n');
      if (endsNl) ls.pop();
      const at = ls.length ? m.a % (ls.length + 1) : 0;
      const junk = m.kind === 'duplicate-line' && ls.length ? ls[Math.min(at, ls.length - 1)] : m.junk.replace(/[\r\n]/g, ' ');
      ls.splice(at, 0, junk);
      put(enc.encode(ls.join('\n') + (endsNl || !text.length ? '\n' : '')));
      const blank = junk.trim() === '';
      return m.kind === 'garbage-line' && !blank && !isJsonLine(junk) ? { garbageLine: at + 1 } : {};
    }
    case 'wrong-type': {
      const text = dec.decode(data);
      const whole = wrongType(text, m.a, m.value);
      if (whole !== null) { put(whole); return {}; }
      // JSONL: one line's value.
      const ls = text.split('\n');
      const idx = ls.map((l, i) => (l.trim() ? i : -1)).filter((i) => i >= 0);
      if (!idx.length) return {};
      const i = idx[m.b % idx.length];
      const line = wrongType(ls[i], m.a, m.value);
      if (line !== null) ls[i] = line;
      put(ls.join('\n'));
      return {};
    }
  }
}
export * from './hostile';
