// The end of a JSON string or container found 16 bytes at a time (WebAssembly SIMD), for the row picker (scan.ts).
// A transcript row of 25 KB holds a quote or backslash every ~15 bytes, so a native indexOf per quote (what scan.ts
// does without this) pays a call into C++ per quote: ~40 million of them in a 1 GB rollouts file. Here one 16-byte
// compare finds the next quote or backslash, and the walk never leaves WebAssembly.
//
// The module is assembled below from its instructions (names as in the WebAssembly text format, opcodes from the
// core and SIMD specifications), so the source is the program: no prebuilt binary. It works only on bytes in its own
// memory (a row worker reads its groups of the file there, groupLines.ts, or `FastSkip.load` copies a handed chunk
// there), and scan.ts uses it when it is handed that memory's view.
//
//   (func $str (param $i i32) (param $end i32) (result i32)   ;; $i: the opening quote
//     ;; the index after the closing quote, or -1 - $end when the string does not close before $end
//   (func $box (param $i i32) (param $end i32) (result i32)   ;; $i: `{` or `[`
//     ;; the index after the matching `}` or `]`, or -1 - $end (brackets counted as scan.ts's skipValue counts them)
import { NodeBuffer } from '../bytes';

const I32 = 0x7f, V128 = 0x7b, EMPTY = 0x40;
const QUOTE = 0x22, BSLASH = 0x5c, LBRACE = 0x7b, RBRACE = 0x7d, LBRACK = 0x5b, RBRACK = 0x5d;

/** Unsigned and signed LEB128 (the format's integers). */
function uleb(n: number): number[] {
  const out: number[] = [];
  do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n);
  return out;
}
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}

// Instructions (one array of bytes each).
const block = [0x02, EMPTY], loop = [0x03, EMPTY], if_ = [0x04, EMPTY], else_ = [0x05], end = [0x0b];
const br = (depth: number) => [0x0c, ...uleb(depth)];
const br_if = (depth: number) => [0x0d, ...uleb(depth)];
const return_ = [0x0f];
const call = (f: number) => [0x10, ...uleb(f)];
const get = (l: number) => [0x20, ...uleb(l)];
const set = (l: number) => [0x21, ...uleb(l)];
const tee = (l: number) => [0x22, ...uleb(l)];
const load8_u = [0x2d, 0, 0];
const i32 = (n: number) => [0x41, ...sleb(n)];
const eqz = [0x45], eq = [0x46], ne = [0x47], lt_s = [0x48], ge_u = [0x4f], le_u = [0x4d];
const ctz = [0x68], add = [0x6a], sub = [0x6b], and = [0x71], or = [0x72];
const v128_load = [0xfd, ...uleb(0x00), 0, 0];
const i8x16_splat = [0xfd, ...uleb(0x0f)];
const i8x16_eq = [0xfd, ...uleb(0x23)];
const v128_or = [0xfd, ...uleb(0x50)];
const i8x16_bitmask = [0xfd, ...uleb(0x64)];
const inc = (l: number, by: number) => [...get(l), ...i32(by), ...add, ...set(l)];
/** -1 - local (the failure: where scan.ts throws). */
const failAt = (l: number) => [...i32(-1), ...get(l), ...sub];

// $str: params 0 = i, 1 = end; locals 2 = j, 3 = mask, 4 = byte, 5 = the 16 bytes (v128).
const str = [
  ...get(0), ...i32(1), ...add, ...set(2),
  ...block,
  ...loop,
  // 16 bytes left before end: the first quote or backslash among them, or on to the next 16.
  ...get(2), ...i32(16), ...add, ...get(1), ...le_u,
  ...if_,
  ...get(2), ...v128_load, ...tee(5), ...i32(QUOTE), ...i8x16_splat, ...i8x16_eq,
  ...get(5), ...i32(BSLASH), ...i8x16_splat, ...i8x16_eq, ...v128_or, ...i8x16_bitmask, ...tee(3),
  ...eqz, ...if_, ...inc(2, 16), ...br(2), ...end,
  ...get(2), ...get(3), ...ctz, ...add, ...set(2),
  ...else_,
  // Fewer than 16: a byte at a time.
  ...get(2), ...get(1), ...ge_u, ...br_if(2),
  ...get(2), ...load8_u, ...tee(4), ...i32(QUOTE), ...ne, ...get(4), ...i32(BSLASH), ...ne, ...and,
  ...if_, ...inc(2, 1), ...br(2), ...end,
  ...end,
  // At a backslash: it and the byte it escapes; at a quote: the string's end.
  ...get(2), ...load8_u, ...i32(BSLASH), ...eq,
  ...if_, ...inc(2, 2), ...br(1), ...end,
  ...get(2), ...i32(1), ...add, ...return_,
  ...end,
  ...end,
  ...failAt(1),
];

// $box: params 0 = i, 1 = end; locals 2 = j, 3 = depth, 4 = byte, 5 = a string's end.
const isEither = (l: number, a: number, b: number) => [...get(l), ...i32(a), ...eq, ...get(l), ...i32(b), ...eq, ...or];
const box = [
  ...get(0), ...set(2),
  ...block,
  ...loop,
  ...get(2), ...get(1), ...ge_u, ...br_if(1),
  ...get(2), ...load8_u, ...tee(4), ...i32(QUOTE), ...eq,
  ...if_,
  ...get(2), ...get(1), ...call(0), ...tee(5), ...i32(0), ...lt_s, ...if_, ...get(5), ...return_, ...end,
  ...get(5), ...set(2), ...br(1),
  ...end,
  ...isEither(4, LBRACE, LBRACK),
  ...if_, ...inc(3, 1),
  ...else_,
  ...isEither(4, RBRACE, RBRACK),
  ...if_, ...inc(3, -1), ...get(3), ...eqz, ...if_, ...get(2), ...i32(1), ...add, ...return_, ...end, ...end,
  ...end,
  ...inc(2, 1), ...br(0),
  ...end,
  ...end,
  ...failAt(1),
];

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}
function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}
function name(s: string): number[] {
  return [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
}
function code(locals: [number, number][], body: number[]): number[] {
  const f = [...vec(locals.map(([n, t]) => [...uleb(n), t])), ...body, ...end];
  return [...uleb(f.length), ...f];
}

/** The module's bytes (exported for its test). */
export function skipModuleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec([[I32], [I32]]), ...vec([[I32]])]])),
    ...section(3, vec([[0], [0]])),
    ...section(5, vec([[0x00, ...uleb(1)]])),
    ...section(7, vec([[...name('str'), 0x00, 0], [...name('box'), 0x00, 1], [...name('mem'), 0x02, 0]])),
    ...section(10, vec([code([[3, I32], [1, V128]], str), code([[4, I32]], box)])),
  ]);
}

const PAGE = 65536;

/** Chunks larger than this are scanned without it (its memory never shrinks: a long line must not keep it large). */
export const FAST_SKIP_MAX = 16 << 20;

/** One thread's skipper: its memory, and the view over it that scan.ts recognises. */
export class FastSkip {
  /** The memory's bytes (a Node Buffer where there is one); replaced when the memory grows. */
  bytes: Uint8Array;
  readonly str: (i: number, end: number) => number;
  readonly box: (i: number, end: number) => number;
  private readonly mem: WebAssembly.Memory;

  private constructor(instance: WebAssembly.Instance) {
    const e = instance.exports as { str(i: number, end: number): number; box(i: number, end: number): number; mem: WebAssembly.Memory };
    this.str = e.str;
    this.box = e.box;
    this.mem = e.mem;
    this.bytes = this.view();
  }

  private view(): Uint8Array {
    return NodeBuffer ? NodeBuffer.from(this.mem.buffer) : new Uint8Array(this.mem.buffer);
  }

  /** Copies `src[start, end)` to the memory's start and returns the memory's view (the bytes at 0 .. end - start). */
  load(src: Uint8Array, start: number, end: number): Uint8Array {
    this.ensure(end - start);
    this.bytes.set(src.subarray(start, end));
    return this.bytes;
  }

  /** The memory's view, at least `n` bytes long (grown keeping all it holds: a Region of groupLines.ts). */
  ensure(n: number): Uint8Array {
    if (n > this.bytes.length) {
      this.mem.grow(Math.ceil((n - this.bytes.length) / PAGE));
      this.bytes = this.view();
    }
    return this.bytes;
  }

  /** A skipper, or undefined where WebAssembly or its SIMD instructions are not available. */
  static create(): FastSkip | undefined {
    try {
      const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
      if (!wasm) return undefined;
      return new FastSkip(new wasm.Instance(new wasm.Module(skipModuleBytes())));
    } catch {
      return undefined;
    }
  }
}
