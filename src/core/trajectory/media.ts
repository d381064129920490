// Which files a step's image and audio parts may show: a part's path resolved against the folder of the file that
// holds the step, kept only when it stays inside the trajectory's folder (the webview's only local resource root) —
// after symbolic links are resolved, when a `real` resolver is given (a link inside the folder pointing out of it is
// refused like "../"). URLs, absolute paths outside and missing files are not loaded; the viewer says why. Keys match
// the webview's: "m<part>" for the message, "r<call>.<result>.<part>" for a call's observation, "s<result>.<part>"
// for the shared output.
import * as path from 'node:path';
import type { PartView, StepView, TrajectoryView } from './types';

/** The real path of a file (links resolved), or null when it does not exist. */
export type RealPath = (p: string) => string | null;

const within = (abs: string, root: string) => abs.startsWith(root.endsWith('/') ? root : `${root}/`);

function resolvePart(raw: string, baseDir: string, root: string, real?: RealPath): { path: string } | { why: string } {
  if (!raw || raw.includes('\0')) return { why: 'no usable path' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return { why: 'a URL: only files inside the trajectory\'s folder are shown' };
  const abs = path.posix.resolve(baseDir, raw);
  const shown = raw.length > 200 ? `${raw.slice(0, 199)}…` : raw;
  if (!within(abs, root)) return { why: `${shown} is outside the trajectory's folder: refused` };
  if (!real) return { path: abs };
  const r = real(abs);
  if (r === null) return { why: `${shown} does not exist` };
  const realRoot = real(root) ?? root;
  if (!within(r, realRoot)) return { why: `${shown} is a link to a file outside the trajectory's folder: refused` };
  return { path: abs };
}

/** Every media part of `step` by key: the absolute path it may load from, or null and why not. */
export function stepMedia(view: TrajectoryView, step: StepView, root: string, real?: RealPath): { media: Record<string, string | null>; refused: Record<string, string> } {
  const media: Record<string, string | null> = {};
  const refused: Record<string, string> = {};
  const base = path.posix.dirname(view.files[step.file]?.path ?? view.file);
  const add = (key: string, parts: PartView[]) => parts.forEach((p, i) => {
    if (p.kind !== 'image' && p.kind !== 'audio') return;
    const r = resolvePart(p.path, base, root, real);
    media[`${key}${i}`] = 'path' in r ? r.path : null;
    if ('why' in r) refused[`${key}${i}`] = r.why;
  });
  add('m', step.message);
  step.toolCalls.forEach((c, ci) => c.results.forEach((r, ri) => add(`r${ci}.${ri}.`, r.parts)));
  step.sharedResults.forEach((r, ri) => add(`s${ri}.`, r.parts));
  return { media, refused };
}
