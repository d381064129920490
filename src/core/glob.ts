// A small glob matcher for include / exclude options, matched against '/'-separated relative paths:
//   **   any number of whole path segments (also none): `**\/x` matches `x` and `a/b/x`; `a/**` matches `a/…` and `a`
//   *    any characters within one segment (never '/')
//   ?    one character within one segment
// A pattern without '/' matches a path whose last segment matches it anywhere in the tree (`*.jsonl` ≡ `**\/*.jsonl`).
// A leading './' or '/' is ignored; a trailing '/' is ignored. Everything else is a literal.

const cache = new Map<string, RegExp>();

function escape(ch: string): string {
  return /[\\^$.*+?()[\]{}|]/.test(ch) ? `\\${ch}` : ch;
}

export function globToRegExp(glob: string): RegExp {
  const hit = cache.get(glob);
  if (hit) return hit;
  let g = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
  if (!g.includes('/') && g !== '**') g = `**/${g}`;
  const segs = g.split('/');
  let re = '';
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const first = i === 0;
    const last = i === segs.length - 1;
    if (seg === '**') {
      // Zero or more whole segments, with their separators.
      re += first ? (last ? '.*' : '(?:[^/]+/)*') : last ? '(?:/.*)?' : '(?:/[^/]+)*';
      continue;
    }
    if (!first && !(i === 1 && segs[0] === '**')) re += '/';
    for (const ch of seg) re += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : escape(ch);
  }
  const out = new RegExp(`^${re}$`);
  if (cache.size > 500) cache.clear();
  cache.set(glob, out);
  return out;
}

/** Whether a relative path ('a/b/c', no leading './') matches the glob. */
export function globMatch(glob: string, relPath: string): boolean {
  const p = relPath.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
  return globToRegExp(glob).test(p);
}

export function matchesAny(globs: readonly string[] | undefined, relPath: string): boolean {
  return !!globs && globs.some((g) => globMatch(g, relPath));
}

/**
 * Whether nothing below the folder relPath can match glob because the folder itself is excluded: the glob matches
 * the folder, or it ends in '/**' and its stem matches the folder.
 */
export function excludesFolder(glob: string, relPath: string): boolean {
  if (globMatch(glob, relPath)) return true;
  const g = glob.trim().replace(/\/+$/, '');
  return g.endsWith('/**') && globMatch(g.slice(0, -3), relPath);
}
