// Many folders listed and small files read in one call, for readers that need a few files of each of thousands of
// folders (a Harbor job's trials): FsPort.gather where the backend has it (a worker thread on Node and for `file:`
// paths in VS Code), else the same answers from the port's ordinary calls, a few at a time.
import type { EntryType, FileRead, FileStat, FsPort } from './port';
import { invalidUtf8At, lineOfByte } from '../honestInput';

export type DirEntries = [string, EntryType][] | undefined;

export interface ReadRequest {
  path: string;
  /** Files larger than this are not read (answered { tooBig: size }). */
  maxBytes: number;
}

export interface Gathered {
  /** Per folder asked: its entries, or undefined when no folder is there. */
  lists: DirEntries[];
  reads: FileRead[];
  /** Per path asked: what stat answers (undefined when nothing is there). */
  stats: (FileStat | undefined)[];
}

/** Folders listed at once by the fallback. */
const CALLS_IN_FLIGHT = 16;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function listWithCalls(fs: FsPort, dir: string): Promise<DirEntries> {
  let list: [string, EntryType][];
  try {
    list = await fs.readDir(dir);
  } catch {
    list = [];
  }
  if (list.length) return list;
  return (await fs.stat(dir))?.type === 'dir' ? list : undefined;
}

async function readWithCalls(fs: FsPort, file: string, maxBytes: number): Promise<FileRead> {
  const st = await fs.stat(file);
  if (!st) return { missing: true };
  if (st.type === 'dir') return { error: 'a folder, not a file' };
  if (st.size > maxBytes) return { tooBig: st.size };
  try {
    const bytes = await fs.readFile(file);
    const bad = invalidUtf8At(bytes);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    return bad < 0 ? { text } : { text, badUtf8Line: lineOfByte(bytes, bad) };
  } catch (e) {
    return (await fs.stat(file)) ? { error: (e as Error).message } : { missing: true };
  }
}

/** What FsPort.gather answers, from readDir / stat / readFile (any backend). */
export async function gatherWithCalls(
  fs: FsPort, lists: readonly string[], reads: readonly ReadRequest[], stats: readonly string[] = [],
): Promise<Gathered> {
  return {
    lists: await mapLimit(lists, CALLS_IN_FLIGHT, (d) => listWithCalls(fs, d)),
    reads: await mapLimit(reads, CALLS_IN_FLIGHT, (r) => readWithCalls(fs, r.path, r.maxBytes)),
    stats: await mapLimit(stats, CALLS_IN_FLIGHT, (p) => fs.stat(p)),
  };
}

/** Lists and reads through FsPort.gather when the port has it, else through its ordinary calls. */
export async function gather(
  fs: FsPort, lists: readonly string[], reads: readonly ReadRequest[], stats: readonly string[] = [],
): Promise<Gathered> {
  if (lists.length === 0 && reads.length === 0 && stats.length === 0) return { lists: [], reads: [], stats: [] };
  if (fs.gather) {
    try {
      return await fs.gather(lists, reads, stats);
    } catch {
      // fall through: the same answers one call at a time
    }
  }
  return gatherWithCalls(fs, lists, reads, stats);
}
