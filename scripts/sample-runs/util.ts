// Shared helpers of the sample-run generators: a seeded PRNG (same seed → same bytes), hex / uuid ids derived from it,
// JSON / text writers that create folders, a chunked JSONL writer for files of any size, and explicit mtimes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

/** mulberry32: small, fast, good enough for sample data; deterministic for a given 32-bit seed. */
export class Prng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }
  /** Alphanumeric characters, as ShortUUID draws Harbor's trial suffixes. */
  alnum(n: number): string {
    const chars = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let out = '';
    for (let i = 0; i < n; i++) out += chars[Math.floor(this.next() * chars.length)];
    return out;
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** A PRNG for one named thing, independent of the order things are generated in. */
export function prngFor(seed: number, key: string): Prng {
  const h = createHash('sha256').update(`${seed}:${key}`).digest();
  return new Prng(h.readUInt32LE(0));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Rounds to `d` decimals so printed floats stay short and stable. */
export function round(x: number, d = 4): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

export function mkdirp(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
}

export function writeText(file: string, text: string): string {
  mkdirp(path.dirname(file));
  fs.writeFileSync(file, text);
  return file;
}

/** JSON with the given indent and a trailing newline only when `newline` (Harbor's model_dump_json writes none). */
export function writeJson(file: string, value: unknown, indent = 2, newline = true): string {
  return writeText(file, JSON.stringify(value, null, indent) + (newline ? '\n' : ''));
}

/** Sets a file's (or folder's) access and modification time, in epoch seconds. */
export function setMtime(file: string, epochSec: number): void {
  fs.utimesSync(file, epochSec, epochSec);
}

/** Appends text to a file through a buffer, flushing in chunks of about `chunk` bytes: constant memory for huge files. */
export class ChunkedWriter {
  private fd: number;
  private buf: string[] = [];
  private len = 0;
  bytes = 0;
  lines = 0;
  constructor(readonly file: string, private chunk = 1 << 20) {
    mkdirp(path.dirname(file));
    this.fd = fs.openSync(file, 'w');
  }
  write(text: string): void {
    this.buf.push(text);
    this.len += text.length;
    if (this.len >= this.chunk) this.flush();
  }
  /** One JSONL line (the value serialised, then "\n"). */
  line(value: unknown): void {
    this.write(JSON.stringify(value) + '\n');
    this.lines++;
  }
  flush(): void {
    if (!this.buf.length) return;
    const data = Buffer.from(this.buf.join(''), 'utf8');
    fs.writeSync(this.fd, data);
    this.bytes += data.length;
    this.buf = [];
    this.len = 0;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** Writes JSONL rows (small files): one JSON object per line, each terminated. */
export function writeJsonl(file: string, rows: Iterable<unknown>): string {
  const w = new ChunkedWriter(file);
  for (const r of rows) w.line(r);
  w.close();
  return file;
}

/** Deterministic filler text of about `bytes` characters (ASCII, JSON-safe), for transcripts of a given size. */
export function filler(rng: Prng, bytes: number): string {
  const words = ['ls', '-la', 'cat', 'grep', 'the', 'file', 'output', 'error', 'test', 'passed', 'build', 'make',
    'python3', 'run.sh', '/app', 'cd', 'echo', 'done', 'OK', 'permission', 'denied', 'line', 'count', 'value'];
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = words[Math.floor(rng.next() * words.length)];
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ').slice(0, Math.max(0, bytes));
}

/** ISO time with microseconds and "Z" (Harbor's trial-level UTC times). */
export function isoZ(epochSec: number): string {
  const us = Math.round(epochSec * 1e6);
  const ms = Math.floor(us / 1000);
  const micro = us % 1000;
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_m, d: string) => `.${d}${String(micro).padStart(3, '0')}Z`);
}

/** ISO time with "+00:00" (ATIF step timestamps, isoformat()). */
export function isoOffset(epochSec: number): string {
  return isoZ(epochSec).replace(/Z$/, '+00:00');
}

/** Naive local-looking time without offset (Harbor's job-level times); rendered in UTC so it does not depend on the machine. */
export function isoNaive(epochSec: number): string {
  return isoZ(epochSec).replace(/Z$/, '');
}

/** Relative POSIX path from `base` to `p`. */
export function rel(base: string, p: string): string {
  return path.relative(base, p).split(path.sep).join('/');
}
