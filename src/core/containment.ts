// Paths a run's data names are only followed inside the run: a summary's `files.*`, a repeat's evidence paths and a
// viewer trace that resolve outside the run's folder (`../../../../etc/passwd`, `/etc/shadow`) are flagged as such and
// never read, quoted, opened or written without the user's explicit action.
import * as path from 'node:path';
import type { FsPort } from './fs/port';

const NOT_NORMAL = /\/\/|\/\.\.?(\/|$)/;

/** An absolute POSIX path that resolve() leaves as it is: no empty, '.' or '..' segment, no trailing slash. */
function isNormalAbsolute(p: string): boolean {
  return p.charCodeAt(0) === 0x2f && (p.length === 1 || p.charCodeAt(p.length - 1) !== 0x2f) && !NOT_NORMAL.test(p);
}

/** Whether `abs` (absolute, POSIX) lies inside `root` (or is it). Lexical: `..` segments are resolved first. */
export function isInside(root: string, abs: string): boolean {
  // Both already normal absolute paths (the common case, asked once per evidence path of a 40,000-attempt run): a
  // prefix test answers what resolve and relative would.
  if (isNormalAbsolute(root) && isNormalAbsolute(abs)) {
    return abs === root || root === '/' || (abs.startsWith(root) && abs.charCodeAt(root.length) === 0x2f);
  }
  const r = path.posix.relative(path.posix.resolve(root), path.posix.resolve(abs));
  return r === '' || (r !== '..' && !r.startsWith('../') && !path.posix.isAbsolute(r));
}

/** The message of an 'outside-run' Problem. */
export function outsideMessage(what: string, named: string, root: string): string {
  return `${what} names ${named}, which is outside the run's folder ${root}: not read and not opened (open it yourself if you trust it)`;
}

/** Whether a path may be opened as the run's: inside its folder once links are resolved, or why not. */
export type Containment =
  /** `checked` 'text': the file system cannot resolve links, so only the path's text was checked. */
  | { inside: true; checked: 'real' | 'text' }
  | { inside: false; reason: string; real?: string };

/**
 * Contains `p` in the run's folder `root` before anything opens it: by its text (`..`, an absolute path elsewhere),
 * then, where the FsPort resolves links (FsPort.realpath), by its real path against the folder's real path (a
 * `test-stdout.txt -> /etc/passwd` link). A path that is not there is inside when its text is (nothing to open).
 */
export async function containment(fs: FsPort, root: string, p: string): Promise<Containment> {
  if (!isInside(root, p)) return { inside: false, reason: `${p} is outside the run's folder ${root}` };
  if (!fs.realpath) return { inside: true, checked: 'text' };
  const [realRoot, real] = await Promise.all([fs.realpath(root), fs.realpath(p)]);
  if (real === undefined) return { inside: true, checked: 'real' };
  if (!isInside(realRoot ?? root, real)) return { inside: false, real, reason: `${p} is a link to ${real}, outside the run's folder ${root}` };
  return { inside: true, checked: 'real' };
}
