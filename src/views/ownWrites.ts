// Summaries this extension wrote itself (Write Run Summary), each with its size and modification time once written:
// the watcher's event for such a file is not a change to re-read while the file is still as written. The event can
// come before the written run is put into the store (building it takes seconds on a big run): re-reading a 38 MB
// summary then cost 5 s of the extension host.
import type { FsPort } from '../core/fs/port';

export class OwnWrites {
  private readonly written = new Map<string, Promise<{ size: number; mtimeMs: number } | undefined>>();

  constructor(private readonly fs: Pick<FsPort, 'stat'>) {}

  /** A file just written by us (call it as soon as the write returns): its size and time as they are now. */
  note(path: string): void {
    this.written.set(path, this.fs.stat(path).then((st) => (st ? { size: st.size, mtimeMs: st.mtimeMs } : undefined), () => undefined));
  }

  has(path: string): boolean {
    return this.written.has(path);
  }

  /** Whether a change event of `path` is only our own write (the file still as written); forgets it once changed. */
  async isUnchanged(path: string): Promise<boolean> {
    const mine = await this.written.get(path);
    if (!mine) return false;
    const st = await this.fs.stat(path).catch(() => undefined);
    if (st && st.size === mine.size && st.mtimeMs === mine.mtimeMs) return true;
    this.written.delete(path);
    return false;
  }
}
