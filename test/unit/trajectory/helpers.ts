// A trajectory folder from the generator, mounted in memory, and its view model.
import { MemFs } from '../../../scripts/sample-runs/memFs';
import type { FolderFiles } from '../../../scripts/sample-runs/atifFeatures';
import { loadTrajectory, type TrajectoryView } from '../../../src/core/trajectory';

export function memFolder(files: FolderFiles, dir = '/runs/job/trial/agent'): MemFs {
  const fs = new MemFs();
  for (const [rel, v] of Object.entries(files)) fs.put(`${dir}/${rel}`, v instanceof Uint8Array ? v : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  return fs;
}

export async function viewOf(files: FolderFiles, dir = '/runs/job/trial/agent', main = 'trajectory.json'): Promise<TrajectoryView> {
  return loadTrajectory(memFolder(files, dir), `${dir}/${main}`);
}
