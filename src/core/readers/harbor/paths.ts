// Path helpers of the Harbor reader: the project's POSIX helpers (core/paths.ts), and the `file://` URIs Harbor writes.
export { joinPath, basename as baseName } from '../../paths';

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
