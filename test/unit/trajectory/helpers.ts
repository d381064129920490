// A trajectory folder from the generator, mounted in memory, and its view model.
import { MemFs } from '../../../scripts/sample-runs/memFs';
import type { FolderFiles } from '../../../scripts/sample-runs/atifFeatures';
import { loadTrajectory, type TrajectoryView } from '../../../src/core/trajectory';
import type { TrajectoryFs } from '../../../src/core/trajectory/read';

export function memFolder(files: FolderFiles, dir = '/runs/job/trial/agent'): MemFs {
  const fs = new MemFs();
  for (const [rel, v] of Object.entries(files)) fs.put(`${dir}/${rel}`, v instanceof Uint8Array ? v : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  return fs;
}

export async function viewOf(files: FolderFiles, dir = '/runs/job/trial/agent', main = 'trajectory.json'): Promise<TrajectoryView> {
  return loadTrajectory(memFolder(files, dir), `${dir}/${main}`);
}

/**
 * The same files, read sequentially `chunk` bytes at a time whatever the reader asks for; `failAfter`: a read of a
 * path matching `failOn` rejects ('boom') once that many bytes were read.
 */
export function chunkedFs(mem: MemFs, chunk: number, failAfter = Infinity, failOn = /./): TrajectoryFs {
  return {
    stat: (p) => mem.stat(p),
    readFile: (p) => mem.readFile(p),
    openSequential: async (p) => {
      const bytes = await mem.readFile(p);
      let at = 0;
      return {
        read: async (into: Uint8Array) => {
          if (at >= failAfter && failOn.test(p)) throw new Error('boom');
          const n = Math.min(chunk, into.length, bytes.length - at); into.set(bytes.subarray(at, at + n)); at += n; return n;
        },
        close: async () => undefined,
      };
    },
  };
}
