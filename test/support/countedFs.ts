// A MemFs seen through an FsPort that counts the bytes its streamed reads hand out: tests of reads that go on from
// where an earlier one ended check with it that the head of a file is not read again.
import type { FsPort } from '../../src/core/fs/port';
import type { MemFs } from '../../scripts/sample-runs/memFs';

export function counted(fs: MemFs): { fs: FsPort; bytes: () => number } {
  let n = 0;
  const port = Object.create(fs) as FsPort;
  port.readChunks = async function* (p: string, size?: number, start?: number) {
    for await (const c of fs.readChunks(p, size, start)) { n += c.length; yield c; }
  };
  return { fs: port, bytes: () => n };
}
