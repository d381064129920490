// The ONE set of POSIX path helpers of the project (FsPort paths are absolute POSIX strings; a Windows drive path
// `C:/…` is accepted and only related to paths on the same drive). Every join normalises `.`, `..` and double slashes.

export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return p.slice(0, i);
}

export function basename(p: string): string {
  const s = p.endsWith('/') && p.length > 1 ? p.slice(0, -1) : p;
  return s.slice(s.lastIndexOf('/') + 1);
}

/** `name` without its last suffix (`rollouts.jsonl` → `rollouts`; `.hidden` keeps its name). */
export function stemOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(0, i) : name;
}

/** The path without its last suffix, as Python's `Path.with_suffix('')`. */
export function withoutSuffix(p: string): string {
  return joinPath(dirname(p), stemOf(basename(p)));
}

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}

/** An absolute POSIX path already normal: `/` then segments that are neither empty, `.` nor `..`, no backslash. */
const NORMAL = /^(?:\/(?!\.\.?(?:\/|$))[^/\\]+)+$/;

/** Whether `p` is an absolute path with no `.`, `..` or empty segment (nothing to resolve before the disk is asked). */
export function isNormalAbsolute(p: string): boolean {
  return NORMAL.test(p);
}

/** Normalises `.` / `..` / duplicate slashes of an absolute path. */
export function normalizePath(p: string): string {
  if (NORMAL.test(p)) return p;
  const drive = /^[A-Za-z]:/.test(p) ? p.slice(0, 2) : '';
  const rest = (drive ? p.slice(2) : p).replace(/\\/g, '/');
  const out: string[] = [];
  for (const seg of rest.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') { out.pop(); continue; }
    out.push(seg);
  }
  return `${drive}/${out.join('/')}`;
}

export function joinPath(base: string, ...parts: string[]): string {
  let p = base;
  for (const part of parts) {
    if (!part) continue;
    p = isAbsolutePath(part) ? part : `${p.replace(/\/+$/, '')}/${part}`;
  }
  return normalizePath(p);
}

/** Resolves `p` against `base` when it is relative. */
export function resolvePath(base: string, p: string): string {
  return isAbsolutePath(p) ? normalizePath(p) : joinPath(base, p);
}

const driveOf = (p: string): string => (/^[A-Za-z]:/.test(p) ? p.slice(0, 2).toUpperCase() : '');

/** `target` relative to the folder `base`, `..` segments allowed; absolute when no relative form exists (another drive). */
export function relativePath(base: string, target: string): string {
  // The common case, a path under the folder: no splitting.
  if (target.length > base.length + 1 && target.charCodeAt(base.length) === 47 && target.startsWith(base)
    && NORMAL.test(base) && NORMAL.test(target)) return target.slice(base.length + 1);
  if (!isAbsolutePath(base) || !isAbsolutePath(target) || driveOf(base) !== driveOf(target)) return target;
  const b = normalizePath(base).slice(driveOf(base).length).split('/').filter(Boolean);
  const t = normalizePath(target).slice(driveOf(target).length).split('/').filter(Boolean);
  let i = 0;
  while (i < b.length && i < t.length && b[i] === t[i]) i++;
  const parts = [...Array(b.length - i).fill('..'), ...t.slice(i)];
  return parts.length ? parts.join('/') : '.';
}

/** Whether `p` is `folder` or lies inside it. */
export function isWithin(p: string, folder: string): boolean {
  return p === folder || p.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** `p` relative to `folder` when it lies inside it (for display); `p` itself otherwise. */
export function relativeInside(folder: string, p: string): string {
  const f = folder.endsWith('/') ? folder : `${folder}/`;
  return p.startsWith(f) ? p.slice(f.length) : p;
}
