// POSIX path helpers of the Harbor reader (FsPort paths are absolute POSIX strings).

export function joinPath(base: string, ...parts: string[]): string {
  let p = base.length > 1 ? base.replace(/\/+$/, '') : base;
  for (const part of parts) {
    if (!part) continue;
    p = p === '/' ? `/${part}` : `${p}/${part}`;
  }
  return p;
}

export function baseName(p: string): string {
  const s = p.length > 1 ? p.replace(/\/+$/, '') : p;
  return s.slice(s.lastIndexOf('/') + 1);
}

/** A folder path without trailing slashes ("/" stays "/"). */
export function trimDir(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') || '/' : p;
}

/** The path of a `file://` URI (Harbor's trial_uri), or null when it is not one. */
export function fileUriToPath(uri: string | null | undefined): string | null {
  if (!uri || !uri.startsWith('file://')) return null;
  let rest = uri.slice('file://'.length);
  // file://host/path is not a local path we can use; file:///abs is.
  if (!rest.startsWith('/')) return null;
  try {
    rest = decodeURIComponent(rest);
  } catch {
    return null;
  }
  // file:///C:/x → C:/x
  if (/^\/[A-Za-z]:\//.test(rest)) rest = rest.slice(1);
  return trimDir(rest);
}
