// Small helpers for reading untrusted JSON values leniently: type guards, JSON pointers, and pretty printing that
// never throws (a hostile document may nest deeper than JSON.stringify's stack).

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Own property only (never the prototype chain: a key like "__proto__" or "constructor" is data). */
export function own(o: Obj, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** RFC 6901: "~" → "~0", "/" → "~1". */
export function pointer(...parts: (string | number)[]): string {
  return parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Pretty JSON of a value; a short note instead when it cannot be printed (too deep, cyclic). */
export function pretty(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch (e) {
    return `(cannot be shown as JSON: ${(e as Error).message})`;
  }
}

/** Pretty JSON of an `extra` object, or null when absent or empty. */
export function prettyExtra(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (isObj(v) && Object.keys(v).length === 0) return null;
  return pretty(v);
}

/** The first `max` characters on one line (for step summaries). */
export function oneLine(s: string, max = 160): string {
  const flat = s.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The value at an RFC 6901 pointer, or undefined (own properties only). */
export function atPointer(doc: unknown, ptr: string): unknown {
  if (ptr === '') return doc;
  let cur: unknown = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = /^\d+$/.test(key) ? cur[Number(key)] : undefined;
    else if (isObj(cur)) cur = own(cur, key);
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}
