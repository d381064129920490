// A value JSON.parse made that a zod schema certainly passes, told without zod. The Harbor reader checks 10,000
// result.json files against TrialResultSchema; zod's check builds a copy of every object it passes, and the check and
// its copies (and collecting them) took more of the reader's thread than JSON.parse itself. `plainCheck(schema)` is a
// check built once from the schema's own definition: true only when the schema passes the value AND its output would
// be the value itself, its keys in the same order (a loose object's output lists its shape's keys first, so a value
// whose keys come in another order is not plain): the reader then takes the value as it is. False asks zod, which says what is wrong (or makes the copy a value needs, below).
// Built from the few kinds of schema the readers' schemas use (schemas/harbor.ts): loose objects, records, arrays,
// strings, numbers (finite; safe integers), booleans, unknown, optional, nullable, unions of flat objects. Any other
// kind (a stripping object, a default, a transform, a check it does not know) is never plain: zod reads it.
// Never plain either: an object with an own "__proto__" key (JSON.parse makes one; zod's copy sets the prototype).
import type { z } from 'zod';

export type PlainCheck = (v: unknown) => boolean;

const NEVER: PlainCheck = () => false;
const ANY: PlainCheck = () => true;

type Def = {
  type: string;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
  coerce?: boolean;
  innerType?: Schema;
  element?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  options?: Schema[];
};
type Schema = { _zod: { def: Def } };

const hasOwn = Object.prototype.hasOwnProperty;

/** A plain object as JSON.parse makes one (Object's prototype, not an array), without an own "__proto__" key. */
function plainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype && !hasOwn.call(v, '__proto__');
}

const noChecks = (d: Def) => !d.checks?.length && !d.coerce;

/** A check that is exactly the schema's (no nested object copied): what a union's options may hold. */
function leaf(d: Def): boolean {
  if (d.type === 'optional' || d.type === 'nullable') return leaf(d.innerType!._zod.def);
  return d.type === 'string' || d.type === 'boolean' || d.type === 'unknown' || d.type === 'number';
}

function objectCheck(d: Def, ordered = true): PlainCheck | undefined {
  if (d.type === 'record') {
    const k = d.keyType!._zod.def;
    if (k.type !== 'string' || !noChecks(k)) return undefined;
    const value = compile(d.valueType!, ordered);
    return (v) => {
      if (!plainObject(v)) return false;
      for (const key in v) if (!value(v[key])) return false;
      return true;
    };
  }
  if (d.type !== 'object' || d.catchall?._zod.def.type !== 'unknown') return undefined;
  const keys = Object.keys(d.shape!);
  // A shape key Object's prototype also has ('constructor'): what zod reads of a value without it is not plain.
  if (keys.some((key) => key in Object.prototype)) return undefined;
  const fields = keys.map((key) => compile(d.shape![key], ordered));
  const at = new Map(keys.map((key, i) => [key, i]));
  const valid = (v: Record<string, unknown>) => {
    for (let i = 0; i < keys.length; i++) if (!fields[i](v[keys[i]])) return false;
    return true;
  };
  if (!ordered) return (v) => plainObject(v) && valid(v);
  return (v) => {
    if (!plainObject(v)) return false;
    // zod's output lists the shape's keys first, in the shape's order, then the others as they come: the value's
    // keys in that order already, or its output would not be the value.
    let next = 0;
    let others = false;
    for (const key in v) {
      const i = at.get(key);
      if (i === undefined) others = true;
      else if (others || i < next) return false;
      else next = i + 1;
    }
    return valid(v);
  };
}

function compile(schema: Schema, ordered: boolean): PlainCheck {
  const d = schema._zod.def;
  switch (d.type) {
    case 'string': return noChecks(d) ? (v) => typeof v === 'string' : NEVER;
    case 'boolean': return noChecks(d) ? (v) => typeof v === 'boolean' : NEVER;
    case 'unknown': case 'any': return ANY;
    case 'number': {
      if (d.coerce) return NEVER;
      const checks = d.checks ?? [];
      if (checks.length === 0) return (v) => typeof v === 'number' && Number.isFinite(v);
      const safeInt = checks.every((c) => c._zod.def.check === 'number_format' && c._zod.def.format === 'safeint');
      return safeInt ? (v) => Number.isSafeInteger(v) : NEVER;
    }
    case 'optional': {
      // nullish(): one test for both (most fields of the schemas are).
      const inner = d.innerType!._zod.def;
      if (inner.type === 'nullable') { const value = compile(inner.innerType!, ordered); return (v) => v == null || value(v); }
      const value = compile(d.innerType!, ordered);
      return (v) => v === undefined || value(v);
    }
    case 'nullable': { const inner = compile(d.innerType!, ordered); return (v) => v === null || inner(v); }
    case 'array': {
      if (!noChecks(d)) return NEVER;
      const element = compile(d.element!, ordered);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'union': {
      // zod's output is that of its first option that passes. Options that are objects of flat fields are checked
      // exactly but for key order (the value without an own "__proto__"): the first that checks so is that option,
      // and its output the value when it checks with key order too.
      const options = d.options!.map((o) => o._zod.def);
      const flat = options.every((o) => (o.type === 'record' ? leaf(o.valueType!._zod.def) : o.type === 'object'
        && Object.values(o.shape!).every((f) => leaf(f._zod.def))));
      const passes = flat ? options.map((o) => objectCheck(o, false)) : [];
      const plain = flat ? options.map((o) => objectCheck(o, ordered)) : [];
      if (!flat || passes.some((c) => !c)) return NEVER;
      return (v) => {
        for (let i = 0; i < passes.length; i++) if (passes[i]!(v)) return plain[i]!(v);
        return false;
      };
    }
    default: return objectCheck(d, ordered) ?? NEVER;
  }
}

/**
 * The check of `schema` (build it once, beside the schema). `sameKeyOrder` false: a loose object's keys may come in
 * any order (the output then holds the same keys and values, listed in another order), for a reader that reads the
 * value's objects by their keys and never lists them.
 */
export function plainCheck(schema: z.ZodType, sameKeyOrder = true): PlainCheck {
  return compile(schema as unknown as Schema, sameKeyOrder);
}

const built = [new WeakMap<object, PlainCheck>(), new WeakMap<object, PlainCheck>()];

type Parsed<T> = { success: true; data: T } | { success: false; error: z.ZodError };

/**
 * schema.safeParse(v), answered with `v` itself (no check by zod, no copy) when it plainly passes (above; `sameKeyOrder`
 * as there).
 */
export function safeParsePlain<T>(schema: z.ZodType<T>, v: unknown, sameKeyOrder = true): Parsed<T> {
  const cache = built[sameKeyOrder ? 0 : 1];
  let check = cache.get(schema);
  if (!check) cache.set(schema, (check = plainCheck(schema, sameKeyOrder)));
  return check(v) ? { success: true, data: v as T } : schema.safeParse(v);
}
