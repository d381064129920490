// Glob matching for include / exclude options, against '/'-separated relative paths, in time bounded by
// (path length × pattern length) whatever the pattern: no regular expression, so no backtracking blow-up. (A pattern
// of ten `*a` against a 40-character name takes over 30 s in the regex-based matchers picomatch and minimatch; the
// settings can come from an untrusted workspace's .vscode/settings.json.)
//   **        any number of whole path segments (also none): `**\/x` matches `x` and `a/b/x`; `a/**` matches `a/…` and `a`
//   *         any characters within one segment (never '/')
//   ?         one character within one segment
//   [abc] [a-z] [!a] [^a]   one character of (or not of) the set
//   {a,b}     alternatives (nested allowed; at most MAX_ALTERNATIVES expansions, past that the braces are literal)
// A pattern without '/' matches a path whose last segment matches it anywhere in the tree (`*.jsonl` ≡ `**\/*.jsonl`).
// A leading './' or '/' is ignored; a trailing '/' is ignored. `*` and `?` match a leading dot too. Everything else is
// a literal. Case-sensitive.

type Token =
  | { t: 'lit'; c: string }
  | { t: 'one' }
  | { t: 'star' }
  | { t: 'set'; neg: boolean; chars: string; ranges: [number, number][] };
/** A pattern segment: `**` or the tokens of one segment. */
type Segment = 'globstar' | Token[];

export const MAX_ALTERNATIVES = 64;

const cache = new Map<string, Segment[][]>();

function normalize(p: string): string {
  return p.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
}

/** Expands `{a,b}` alternatives; null when there would be more than `max`. */
export function expandBraces(glob: string, max = MAX_ALTERNATIVES): string[] | null {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '{') { if (depth++ === 0) open = i; } else if (ch === '}' && depth > 0 && --depth === 0) {
      const inner = glob.slice(open + 1, i);
      const parts: string[] = [];
      let d = 0;
      let start = 0;
      for (let j = 0; j < inner.length; j++) {
        if (inner[j] === '{') d++; else if (inner[j] === '}') d--; else if (inner[j] === ',' && d === 0) { parts.push(inner.slice(start, j)); start = j + 1; }
      }
      parts.push(inner.slice(start));
      if (parts.length < 2) continue; // `{a}`: literal
      const out: string[] = [];
      for (const part of parts) {
        const more = expandBraces(glob.slice(0, open) + part + glob.slice(i + 1), max);
        if (!more) return null;
        out.push(...more);
        if (out.length > max) return null;
      }
      return out;
    }
  }
  return [glob];
}

function tokenize(seg: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const ch = seg[i];
    if (ch === '*') { if (out[out.length - 1]?.t !== 'star') out.push({ t: 'star' }); continue; }
    if (ch === '?') { out.push({ t: 'one' }); continue; }
    if (ch === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close > 0) {
        let body = seg.slice(i + 1, close);
        const neg = body[0] === '!' || body[0] === '^';
        if (neg) body = body.slice(1);
        let chars = '';
        const ranges: [number, number][] = [];
        for (let j = 0; j < body.length; j++) {
          if (body[j + 1] === '-' && j + 2 < body.length) { ranges.push([body.charCodeAt(j), body.charCodeAt(j + 2)]); j += 2; } else chars += body[j];
        }
        out.push({ t: 'set', neg, chars, ranges });
        i = close;
        continue;
      }
    }
    out.push({ t: 'lit', c: ch });
  }
  return out;
}

function compile(glob: string): Segment[][] {
  const hit = cache.get(glob);
  if (hit) return hit;
  const alts = (expandBraces(normalize(glob)) ?? [normalize(glob)]).map((alt) => {
    let g = normalize(alt);
    if (!g.includes('/') && g !== '**') g = `**/${g}`;
    return g.split('/').filter((s, i, all) => s !== '' && !(s === '**' && all[i - 1] === '**'))
      .map((s): Segment => (s === '**' ? 'globstar' : tokenize(s)));
  });
  if (cache.size > 500) cache.clear();
  cache.set(glob, alts);
  return alts;
}

function matchOne(tok: Token, ch: string): boolean {
  if (tok.t === 'lit') return tok.c === ch;
  if (tok.t === 'one') return true;
  if (tok.t === 'star') return false;
  const code = ch.charCodeAt(0);
  const inSet = tok.chars.includes(ch) || tok.ranges.some(([a, b]) => code >= a && code <= b);
  return inSet !== tok.neg;
}

/**
 * The classic wildcard walk: on a mismatch, resume after the last star with one more unit consumed by it. Each
 * non-star item consumes exactly one unit, so this is exact, and it costs at most units × items steps.
 */
function walk<P, U>(items: readonly P[], units: ArrayLike<U>, isStar: (p: P) => boolean, eq: (p: P, u: U) => boolean): boolean {
  let p = 0;
  let u = 0;
  let starP = -1;
  let starU = 0;
  while (u < units.length) {
    if (p < items.length && isStar(items[p])) { starP = p++; starU = u; continue; }
    if (p < items.length && eq(items[p], units[u])) { p++; u++; continue; }
    if (starP < 0) return false;
    p = starP + 1;
    u = ++starU;
  }
  while (p < items.length && isStar(items[p])) p++;
  return p === items.length;
}

const segmentMatches = (toks: Token[], name: string): boolean =>
  walk(toks, name, (t) => t.t === 'star', matchOne);

/** Whether a relative path ('a/b/c', no leading './') matches the glob. */
export function globMatch(glob: string, relPath: string): boolean {
  const parts = normalize(relPath).split('/').filter((s) => s !== '');
  return compile(glob).some((segs) =>
    walk(segs, parts, (s) => s === 'globstar', (s, name) => s !== 'globstar' && segmentMatches(s, name)));
}

export function matchesAny(globs: readonly string[] | undefined, relPath: string): boolean {
  return !!globs && globs.some((g) => globMatch(g, relPath));
}

/**
 * Whether nothing below the folder relPath can match glob because the folder itself is excluded: the glob matches
 * the folder (`a/**` matches `a` itself, so it excludes the folder `a`). A glob whose stem names a folder only at one
 * place (`old/**`: the top-level old) does not exclude a folder of that name deeper down (`runs/old`).
 */
export function excludesFolder(glob: string, relPath: string): boolean {
  return globMatch(glob, relPath);
}
