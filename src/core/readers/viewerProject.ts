// A viewer data project (docs/formats.md#viewer-data): projects/<p>/project.json with its label and per-harness support tiers.
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import type { Problem, RunFile } from '../model';
import { ProjectSchema } from '../schemas/viewer';
import { issueProblems, problemAt, readJsonDocument } from './jsonFile';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export interface ViewerProjectInfo {
  dir: string;
  id: string;
  label: string;
  /** harness → "tier" or "tier: caveat; caveat". */
  support: Record<string, { tier: string; caveats: string[] }>;
  file: RunFile;
  problems: Problem[];
}

/** projects/<p>/project.json, read leniently; a project without one still gets its folder name. */
export async function readViewerProject(fs: FsPort, projectDir: string): Promise<ViewerProjectInfo> {
  const file = `${projectDir}/project.json`;
  const doc = await readJsonDocument(fs, file, 'project.json');
  const id = path.posix.basename(projectDir);
  const problems = [...doc.problems];
  const v = isObj(doc.value) ? doc.value : {};
  if (doc.ok) {
    const parsed = ProjectSchema.safeParse(doc.value);
    if (!parsed.success) problems.push(...issueProblems(doc, parsed.error.issues, 'project.json'));
  }
  const support: ViewerProjectInfo['support'] = {};
  if (isObj(v.support)) {
    for (const [harness, t] of Object.entries(v.support)) {
      if (!isObj(t) || typeof t.tier !== 'string') continue;
      const caveats = Array.isArray(t.caveats) ? t.caveats.filter((c): c is string => typeof c === 'string') : [];
      support[harness] = { tier: t.tier, caveats };
      if (t.tier !== 'stable' && caveats.length === 0) {
        problems.push(problemAt(doc, ['support', harness], 'info', 'tier-without-caveat',
          `harness ${harness} is ${t.tier} but project.json says nothing about what does not work`));
      }
    }
  }
  return {
    dir: projectDir, id, label: str(v.label) ?? str(v.project_id) ?? id, support,
    file: { key: 'project', label: 'Project', path: file, present: !doc.problems.some((p) => p.code === 'missing-file') }, problems,
  };
}

export function supportLine(support: ViewerProjectInfo['support']): string | null {
  const parts = Object.entries(support).map(([h, s]) => `${h}: ${s.tier}${s.caveats.length ? ` (${s.caveats.join('; ')})` : ''}`);
  return parts.length ? parts.join(' · ') : null;
}
