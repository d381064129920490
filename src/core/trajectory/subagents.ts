// The subagents of a trajectory (docs/trajectory-json.md; Harbor's ATIF RFC, subagent_trajectory_ref): a reference by
// trajectory_path opens that file (relative to the one naming it), one by trajectory_id opens the embedded
// subagent_trajectories entry with that id, a v1.6 reference holding only session_id is kept but cannot be opened, and
// an embedded trajectory no reference names is listed too. Each is bounded by the load's depth and its visiting set
// (a reference back to a trajectory being read is not followed); the subagents' totals are added once each to
// totalsWithSubagents. How a file or an embedded document becomes a view is the caller's (load.ts): passed in `open`.
import * as path from 'node:path';
import type { SubagentView, TrajectoryView } from './types';
import { own, str, type Obj } from './json';
import type { RawSubagentRef } from './steps';
import { addTotals, emptyTotals } from './recount';
import type { Budget } from './budgetRead';

/** Embedded subagent trajectories by trajectory_id: the document, its file and its JSON pointer there. */
export type EmbeddedHit = { doc: Obj; file: string; ptr: string };
export type Embedded = Map<string, EmbeddedHit>;
/** A subagent reference as read from a step, with the file it was read in. */
export type SubagentRef = { raw: RawSubagentRef; file: string };
/** How the loader turns a referenced file, or an embedded document, into a view (one level deeper). */
export interface SubagentOpeners {
  file(target: string): Promise<TrajectoryView>;
  embedded(hit: EmbeddedHit): Promise<TrajectoryView>;
}

export async function resolveSubagents(view: TrajectoryView, refs: readonly SubagentRef[], embedded: Embedded,
  budget: Pick<Budget, 'visiting' | 'limits'>, depth: number, open: SubagentOpeners): Promise<void> {
  const used = new Set<string>();
  const counted = new Set<string>();
  let withSubs = view.totals;
  const finish = (sv: SubagentView, key: string | null) => {
    if (sv.view) { sv.agent = sv.view.agent.name; sv.steps = sv.view.steps.length; sv.totals = sv.view.totalsWithSubagents; }
    if (sv.view && key && !counted.has(key)) { counted.add(key); withSubs = addTotals(withSubs, sv.totals); }
    view.subagents.push(sv);
  };
  const blank = (kind: SubagentView['kind'], ref: string, step: number | null): SubagentView =>
    ({ kind, ref, path: null, step, unresolved: null, agent: null, steps: 0, totals: emptyTotals(), view: null });
  for (const { raw, file } of refs) {
    if (raw.trajectoryPath) {
      const sv = blank('path', raw.trajectoryPath, raw.step);
      const target = path.posix.resolve(path.posix.dirname(file), raw.trajectoryPath);
      if (budget.visiting.has(target) || target === view.file) { sv.unresolved = 'refers back to a trajectory that contains it'; }
      else if (depth >= budget.limits.maxDepth) { sv.path = target; sv.unresolved = `not opened: nested deeper than ${budget.limits.maxDepth}`; }
      else {
        budget.visiting.add(view.file);
        const sub = await open.file(target);
        budget.visiting.delete(view.file);
        if (sub.unreadable) sv.unresolved = sub.unreadable;
        else { sv.path = target; sv.view = sub; }
      }
      if (sv.unresolved) view.problems.push({ file, pointer: `${raw.pointer}/trajectory_path`, severity: 'warning', message: `subagent ${JSON.stringify(raw.trajectoryPath)}: ${sv.unresolved}` });
      finish(sv, target);
    } else if (raw.trajectoryId) {
      const sv = blank('id', raw.trajectoryId, raw.step);
      const hit = embedded.get(raw.trajectoryId);
      if (!hit) {
        sv.unresolved = 'no embedded subagent_trajectories entry has this trajectory_id';
        view.problems.push({ file, pointer: `${raw.pointer}/trajectory_id`, severity: 'warning', message: `subagent ${JSON.stringify(raw.trajectoryId)}: ${sv.unresolved}` });
      } else {
        used.add(raw.trajectoryId);
        sv.path = `${hit.file}#${hit.ptr}`;
        if (depth < budget.limits.maxDepth) sv.view = await open.embedded(hit);
        else sv.unresolved = `not opened: nested deeper than ${budget.limits.maxDepth}`;
      }
      finish(sv, sv.path);
    } else {
      const sv = blank('session', raw.sessionId ?? '', raw.step);
      sv.unresolved = 'a v1.6 reference by session_id only: session ids name a run, not a document, so it cannot be opened';
      view.problems.push({ file, pointer: raw.pointer, severity: 'info', message: sv.unresolved });
      finish(sv, null);
    }
  }
  for (const [key, hit] of embedded) {
    if (used.has(key)) continue;
    const sv = blank('embedded', str(own(hit.doc, 'trajectory_id')) ?? '', null);
    sv.path = `${hit.file}#${hit.ptr}`;
    if (depth < budget.limits.maxDepth) sv.view = await open.embedded(hit);
    finish(sv, sv.path);
  }
  view.totalsWithSubagents = withSubs;
}
