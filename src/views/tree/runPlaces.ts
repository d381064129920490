// Runs of one list (a workspace folder's) whose rows share a label — two copies of one Harbor job (jobs/a/job1 and
// backup/job1), NeMo Gym runs of the same name in two folders, a viewer dataset copied — are told apart as VS Code
// tells apart editors of files with the same name: each one's description starts with where it is, its folder
// inside the workspace folder (its anchor file when two share a folder). Runs whose label is their own say nothing.
import type { Run } from '../../core/model';
import { basename, relativeInside } from '../../core/paths';

/** `p` inside `folder` ("jobs/a/job1"); the folder itself by its name; a path elsewhere whole. */
function inside(folder: string, p: string): string {
  if (p === folder || `${p}/` === folder) return basename(p) || p;
  return relativeInside(folder, p);
}

/** The label of a run's row in the tree: a Harbor job's is its job name (describe.ts runRow), another run's its label. */
export function rowLabel(run: Run): string {
  return (run.kind === 'harbor-job' ? run.identity.job : undefined) || run.label;
}

/** For each run whose row label another run of `runs` also has: where it is, relative to `folder` (by run id). */
export function runPlaces(runs: readonly Run[], folder: string): Map<string, string> {
  const byLabel = new Map<string, Run[]>();
  for (const r of runs) {
    const same = byLabel.get(rowLabel(r));
    if (same) same.push(r); else byLabel.set(rowLabel(r), [r]);
  }
  const out = new Map<string, string>();
  for (const same of byLabel.values()) {
    if (same.length < 2) continue;
    const roots = new Map<string, number>();
    for (const r of same) roots.set(r.root, (roots.get(r.root) ?? 0) + 1);
    for (const r of same) {
      // Two runs of one folder (two NeMo Gym stems there): the anchor file tells them apart.
      const shared = (roots.get(r.root) ?? 0) > 1;
      out.set(r.id, inside(folder, shared ? r.anchor : r.root));
    }
  }
  return out;
}
