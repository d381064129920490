// Reading one trajectory file for the loader: bounded (the loader's byte and file budget, and the port's read limit),
// in growing chunks when the port can read sequentially (the first megabyte first, so the first steps are parsed
// before the rest is read), whole otherwise. What is kept of each file read (KeptDoc) answers "the JSON at this
// pointer" for the raw view and the per-token view without holding a second, parsed copy of a streamed file.
import { Buffer } from 'node:buffer';
import type { FsPort } from '../fs/port';
import { tooLargeDetail } from '../fs/port';
import { atPointer } from './json';
import type { ByteSource, Span } from './scan';

export type TrajectoryFs = Pick<FsPort, 'stat' | 'readFile'> & Partial<Pick<FsPort, 'openSequential' | 'maxFileBytes' | 'realpath'>>;

const FIRST_CHUNK = 1 << 20;
const MAX_CHUNK = 16 << 20;

export type Opened = { ok: true; src: ByteSource; close(): Promise<void> } | { ok: false; message: string };

/** Opens `file` for reading, or says why not (`maxBytes`: the loader's own limit). */
export async function openBytes(fs: TrajectoryFs, file: string, maxBytes: number): Promise<Opened> {
  const st = await fs.stat(file).catch(() => undefined);
  if (!st) return { ok: false, message: 'no such file' };
  if (st.type !== 'file') return { ok: false, message: 'not a file' };
  if (st.size > maxBytes) return { ok: false, message: `too large (${st.size} bytes; the limit is ${maxBytes})` };
  if (fs.openSequential && fs.maxFileBytes !== undefined && st.size > fs.maxFileBytes) return { ok: false, message: `cannot be read: ${file} ${tooLargeDetail(st.size, fs.maxFileBytes)}` };
  if (!fs.openSequential) {
    try {
      const bytes = await fs.readFile(file);
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return { ok: true, src: { buf, avail: buf.length, eof: true, more: () => Promise.resolve() }, close: () => Promise.resolve() };
    } catch (e) { return { ok: false, message: `cannot be read: ${(e as Error).message}` }; }
  }
  let reader: Awaited<ReturnType<NonNullable<FsPort['openSequential']>>>;
  try { reader = await fs.openSequential(file); } catch (e) { return { ok: false, message: `cannot be read: ${(e as Error).message}` }; }
  // The file may grow while it is read (an agent still writing): what stat said is what is read.
  const src: ByteSource = { buf: Buffer.allocUnsafe(st.size), avail: 0, eof: st.size === 0, more: () => Promise.resolve() };
  let chunk = FIRST_CHUNK;
  src.more = async () => {
    if (src.eof) return;
    const n = await reader.read(src.buf.subarray(src.avail, Math.min(src.buf.length, src.avail + chunk)));
    src.avail += n;
    chunk = Math.min(MAX_CHUNK, chunk * 2);
    if (n === 0 || src.avail >= src.buf.length) { src.eof = true; src.buf = src.buf.subarray(0, src.avail); await reader.close(); }
  };
  return { ok: true, src, close: () => reader.close() };
}

/** What is kept of a file read: the JSON value at a pointer, or the whole document. */
export interface KeptDoc {
  at(ptr: string): unknown;
  /** The file's text, kept only for a file that is not JSON (the page shows it below the parse error). */
  text?(): string;
}

/** A file read whole that does not parse: only its text (every pointer answers undefined). */
export function keptText(text: string): KeptDoc {
  return { at: () => undefined, text: () => text };
}

/** A document parsed whole. */
export function keptParsed(doc: unknown): KeptDoc {
  return { at: (ptr) => atPointer(doc, ptr) };
}

/** A streamed document: its bytes, the spans of its steps, its other top-level values (parsed). */
export function keptStreamed(src: Pick<ByteSource, 'buf'>, steps: Span[], top: Record<string, unknown>): KeptDoc {
  let whole: { v: unknown } | null = null;
  return {
    at(ptr) {
      const buf = src.buf;
      const m = /^\/steps\/(\d+)(\/.*)?$/.exec(ptr);
      if (m) {
        const span = steps[Number(m[1])];
        if (!span) return undefined;
        const step: unknown = JSON.parse(buf.toString('utf8', span.start, span.end));
        return atPointer(step, m[2] ?? '');
      }
      if (ptr === '') {
        whole ??= { v: JSON.parse(buf.toString('utf8', buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0)) };
        return whole.v;
      }
      return atPointer(top, ptr);
    },
  };
}
