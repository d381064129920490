// Which files a step's image and audio parts may show: a part's path resolved against the folder of the file that
// holds the step, kept only when it stays inside the trajectory's folder (the webview's only local resource root).
// URLs and paths outside are not loaded (the viewer says so). Keys match the webview's: "m<part>" for the message,
// "r<call>.<result>.<part>" for a call's observation, "s<result>.<part>" for the shared output.
import * as path from 'node:path';
import type { PartView, StepView, TrajectoryView } from './types';

function resolvePart(p: PartView, baseDir: string, root: string): string | null {
  if (p.kind !== 'image' && p.kind !== 'audio') return null;
  const raw = p.path;
  if (!raw || raw.includes('\0') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return null;
  const abs = path.posix.resolve(baseDir, raw);
  const r = root.endsWith('/') ? root : `${root}/`;
  return abs.startsWith(r) ? abs : null;
}

/** Every media part of `step` by key, with the absolute path it may load from, or null. */
export function stepMedia(view: TrajectoryView, step: StepView, root: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const base = path.posix.dirname(view.files[step.file]?.path ?? view.file);
  const add = (key: string, parts: PartView[]) => parts.forEach((p, i) => {
    if (p.kind === 'image' || p.kind === 'audio') out[`${key}${i}`] = resolvePart(p, base, root);
  });
  add('m', step.message);
  step.toolCalls.forEach((c, ci) => c.results.forEach((r, ri) => add(`r${ci}.${ri}.`, r.parts)));
  step.sharedResults.forEach((r, ri) => add(`s${ri}.`, r.parts));
  return out;
}
