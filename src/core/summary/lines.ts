// Line-by-line reading for the writer's hot path: the next chunk is requested before the current one is scanned
// (read-ahead overlaps the disk with the CPU), lines are handed to a synchronous callback (no per-line promise), a
// line split across chunks is assembled, and only one or two chunks are ever held (constant memory).
import type { FsPort } from '../fs/port';

export const CHUNK_SIZE = 4 << 20;

/** Calls `onLine` for every line (without its newline or trailing \r); `terminated` is false for a last line with no newline. */
export async function forEachLine(fs: FsPort, path: string,
  onLine: (bytes: Uint8Array, line: number, terminated: boolean) => void, chunkSize = CHUNK_SIZE,
  /** Awaited after each chunk's lines when it returns a promise (backpressure: work the lines started may catch up). */
  afterChunk?: () => Promise<void> | undefined): Promise<void> {
  const it = fs.readChunks(path, chunkSize)[Symbol.asyncIterator]();
  let line = 0;
  let carry: Uint8Array | null = null;
  const emit = (bytes: Uint8Array, terminated: boolean) => {
    line++;
    const n = bytes.length;
    onLine(n && bytes[n - 1] === 13 ? bytes.subarray(0, n - 1) : bytes, line, terminated);
  };
  try {
    let next = it.next();
    for (;;) {
      const r = await next;
      if (r.done) break;
      // Read-ahead: the next chunk is requested now. This relies on a yielded chunk staying valid after the next
      // request (NodeFs allocates a buffer per chunk).
      // Newlines are searched in the chunk as the backend gave it (a Node Buffer's indexOf is memchr: fast over
      // 25 KB lines); lines are cut from a plain Uint8Array view (cheaper subarray, and the scanner's many short
      // quote searches are faster on it).
      const raw: Uint8Array = r.value;
      const chunk = new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
      next = it.next();
      let start = 0;
      if (carry) {
        const nl = raw.indexOf(10);
        if (nl < 0) {
          const joined: Uint8Array = new Uint8Array(carry.length + chunk.length);
          joined.set(carry); joined.set(chunk, carry.length);
          carry = joined;
          continue;
        }
        const joined: Uint8Array = new Uint8Array(carry.length + nl);
        joined.set(carry); joined.set(chunk.subarray(0, nl), carry.length);
        carry = null;
        emit(joined, true);
        start = nl + 1;
      }
      for (;;) {
        const nl = raw.indexOf(10, start);
        if (nl < 0) break;
        emit(chunk.subarray(start, nl), true);
        start = nl + 1;
      }
      if (start < chunk.length) carry = chunk.slice(start);
      const wait = afterChunk?.();
      if (wait) await wait;
    }
    if (carry && carry.length) emit(carry, false);
  } finally {
    await it.return?.();
  }
}
