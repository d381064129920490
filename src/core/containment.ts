// Paths a run's data names are only followed inside the run: a summary's `files.*`, a repeat's evidence paths and a
// viewer trace that resolve outside the run's folder (`../../../../etc/passwd`, `/etc/shadow`) are flagged as such and
// never read, quoted, opened or written without the user's explicit action.
import * as path from 'node:path';

/** Whether `abs` (absolute, POSIX) lies inside `root` (or is it). Lexical: `..` segments are resolved first. */
export function isInside(root: string, abs: string): boolean {
  const r = path.posix.relative(path.posix.resolve(root), path.posix.resolve(abs));
  return r === '' || (r !== '..' && !r.startsWith('../') && !path.posix.isAbsolute(r));
}

/** The message of an 'outside-run' Problem. */
export function outsideMessage(what: string, named: string, root: string): string {
  return `${what} names ${named}, which is outside the run's folder ${root}: not read and not opened (open it yourself if you trust it)`;
}
