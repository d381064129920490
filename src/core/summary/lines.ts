// Line-by-line reading for the writer's hot path: the next chunk is requested before the current one is scanned
// (read-ahead overlaps the disk with the CPU), lines are handed to a synchronous callback (no per-line promise), a
// line split across chunks is assembled, and only two chunks are ever held (constant memory; with a backend that
// has openSequential the same two buffers are reused for the whole file).
import { DEFAULT_MAX_FILE_BYTES, type FsPort } from '../fs/port';
import { allocateBytes, asBuffer } from '../bytes';
import { TimeSlice } from '../turn';

export const CHUNK_SIZE = 4 << 20;

/**
 * Calls `onLine` for every line: its bytes are `buf[start, end)` (without the newline or a trailing \r; `buf` is a
 * Node Buffer where there is one, valid only during the call); `terminated` is false for a last line with no newline.
 */
export async function forEachLine(fs: FsPort, path: string,
  onLine: (buf: Uint8Array, start: number, end: number, line: number, terminated: boolean) => void, chunkSize = CHUNK_SIZE,
  /** Awaited after each chunk's lines when it returns a promise (backpressure: work the lines started may catch up). */
  afterChunk?: () => Promise<void> | undefined,
  /**
   * A line longer than the port's file limit is not assembled (memory stays bounded on a file with no newline): its
   * bytes are dropped as they come and this is called with its number and length instead of onLine.
   */
  onLongLine?: (line: number, bytes: number) => void): Promise<void> {
  const maxLine = fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  let line = 0;
  let carry: Uint8Array | null = null;
  let dropped = 0;
  const emit = (buf: Uint8Array, start: number, end: number, terminated: boolean) => {
    line++;
    onLine(buf, start, end > start && buf[end - 1] === 13 ? end - 1 : end, line, terminated);
  };
  // The event loop gets a turn whenever the lines took more than SLICE_MS (a 4 MiB chunk of small rows is 10k
  // lines; a fast disk never makes the loop wait, so without this a whole file would be one long task).
  const slice = new TimeSlice();
  // One chunk's lines; a line split across chunks is assembled in a copy (the chunk's buffer is reused).
  const scan = async (raw: Uint8Array) => {
    // Lines are handed out as ranges of the chunk (no view per line); a Node Buffer's indexOf is memchr, fast over
    // 25 KB lines and over a transcript's many quotes.
    const chunk = asBuffer(raw);
    let start = 0;
    if (dropped) {
      const nl = chunk.indexOf(10);
      if (nl < 0) { dropped += chunk.length; return; }
      line++;
      onLongLine?.(line, dropped + nl);
      dropped = 0;
      start = nl + 1;
    } else if (carry) {
      const nl = chunk.indexOf(10);
      if (nl < 0 && carry.length + chunk.length > maxLine) { dropped = carry.length + chunk.length; carry = null; return; }
      if (nl < 0) {
        const joined = allocateBytes(carry.length + chunk.length);
        joined.set(carry); joined.set(chunk, carry.length);
        carry = joined;
        return;
      }
      const joined = allocateBytes(carry.length + nl);
      joined.set(carry); joined.set(chunk.subarray(0, nl), carry.length);
      carry = null;
      emit(joined, 0, joined.length, true);
      start = nl + 1;
    }
    for (let k = 1; ; k++) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      emit(chunk, start, nl, true);
      start = nl + 1;
      if ((k & 31) === 0 && slice.due) await slice.yield();
    }
    // A copy: the carried part outlives the chunk's buffer.
    if (start < chunk.length) { carry = allocateBytes(chunk.length - start); carry.set(chunk.subarray(start)); }
  };
  if (fs.openSequential) await readReusing(fs.openSequential.bind(fs), path, chunkSize, scan, afterChunk);
  else await readFresh(fs, path, chunkSize, scan, afterChunk);
  const rest = carry as Uint8Array | null;
  if (dropped) onLongLine?.(line + 1, dropped);
  else if (rest && rest.length) emit(rest, 0, rest.length, false);
}

type OpenSequential = NonNullable<FsPort['openSequential']>;

/**
 * Two buffers in turn: the next chunk is read into one while the other is scanned (read-ahead overlaps the disk
 * with the CPU); no buffer is allocated per chunk. Lines handed out are views valid only during `onLine`.
 */
async function readReusing(open: OpenSequential, path: string, chunkSize: number, scan: (chunk: Uint8Array) => Promise<void>,
  afterChunk?: () => Promise<void> | undefined): Promise<void> {
  const file = await open(path);
  const bufs = [allocateBytes(chunkSize), allocateBytes(chunkSize)];
  let turn = 0;
  let pending: Promise<number> | undefined;
  try {
    pending = file.read(bufs[0]);
    for (;;) {
      const n = await pending;
      pending = undefined;
      if (n === 0) break;
      const cur = bufs[turn];
      turn ^= 1;
      pending = file.read(bufs[turn]);
      await scan(n === cur.length ? cur : cur.subarray(0, n));
      const wait = afterChunk?.();
      if (wait) await wait;
    }
  } finally {
    if (pending) await pending.catch(() => 0);
    await file.close();
  }
}

/** Backends without openSequential: a chunk per read, the next one requested before the current one is scanned. */
async function readFresh(fs: FsPort, path: string, chunkSize: number, scan: (chunk: Uint8Array) => Promise<void>,
  afterChunk?: () => Promise<void> | undefined): Promise<void> {
  const it = fs.readChunks(path, chunkSize)[Symbol.asyncIterator]();
  try {
    let next = it.next();
    for (;;) {
      const r = await next;
      if (r.done) break;
      // Read-ahead relies on a yielded chunk staying valid after the next request (the FsPort contract).
      next = it.next();
      await scan(r.value);
      const wait = afterChunk?.();
      if (wait) await wait;
    }
  } finally {
    await it.return?.();
  }
}
