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

/**
 * Whether `s` from `start` on is one or more names joined by single slashes: no empty, `.` or `..` name, no
 * backslash (`a`, `a/b.json`, `...`, `.hidden`; not ``, `a/`, `a//b`, `./a`, `a/..`). One pass, no allocation: the
 * readers ask it of every path they build (a 10,000-trial job: some 200,000 times).
 */
function plainNames(s: string, start: number): boolean {
  const n = s.length;
  if (start >= n) return false;
  let from = start;
  for (let i = start; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 47;
    if (c === 92) return false;
    if (c !== 47) continue;
    const len = i - from;
    if (len === 0) return false;
    if (s.charCodeAt(from) === 46 && (len === 1 || (len === 2 && s.charCodeAt(from + 1) === 46))) return false;
    from = i + 1;
  }
  return true;
}

/**
 * Whether `p` is an absolute POSIX path already normal: `/` then names that are neither empty, `.` nor `..`, no
 * backslash (nothing to resolve before the disk is asked).
 */
export function isNormalAbsolute(p: string): boolean {
  return p.charCodeAt(0) === 47 && plainNames(p, 1);
}

/** Whether `part` is a relative path of plain names (plainNames), and not a drive path (`C:/x` replaces a base). */
function isPlainRelative(part: string): boolean {
  return plainNames(part, 0) && !(part.charCodeAt(1) === 58 && part.charCodeAt(2) === 47 && /^[A-Za-z]/.test(part));
}

/** Normalises `.` / `..` / duplicate slashes of an absolute path. */
export function normalizePath(p: string): string {
  if (isNormalAbsolute(p)) return p;
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

/** The last base joinPath found normal (a reader joins many names to one folder). */
let normalBase: string | undefined;

export function joinPath(base: string, ...parts: string[]): string {
  // The common case, plain names joined to a normal folder: the same answer without resolving anything.
  if (parts.length === 1 && isPlainRelative(parts[0])) {
    if (base === normalBase) return `${base}/${parts[0]}`;
    if (isNormalAbsolute(base)) {
      normalBase = base;
      return `${base}/${parts[0]}`;
    }
  }
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
    && isNormalAbsolute(base) && isNormalAbsolute(target)) return target.slice(base.length + 1);
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
