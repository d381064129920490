// A small evaluator of VS Code `when` clauses (the subset the manifest uses: `&&`, `||`, `!`, parentheses, bare keys,
// `key == value`, `key != value`, `key =~ /regex/flags`), so tests can check package.json's clauses against the code.

export type WhenContext = Record<string, string | number | boolean | undefined>;

type Token = { kind: 'op'; value: string } | { kind: 'word'; value: string } | { kind: 'regex'; value: RegExp };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ') { i++; continue; }
    const two = src.slice(i, i + 2);
    if (['&&', '||', '==', '!=', '=~'].includes(two)) {
      out.push({ kind: 'op', value: two });
      i += 2;
      if (two === '=~') {
        while (src[i] === ' ') i++;
        if (src[i] !== '/') throw new Error(`a regex must follow =~ at ${i}`);
        let j = i + 1;
        while (j < src.length && src[j] !== '/') j += src[j] === '\\' ? 2 : 1;
        const body = src.slice(i + 1, j);
        let k = j + 1;
        while (/[a-z]/.test(src[k] ?? '')) k++;
        out.push({ kind: 'regex', value: new RegExp(body, src.slice(j + 1, k)) });
        i = k;
      }
      continue;
    }
    if (c === '!' || c === '(' || c === ')') { out.push({ kind: 'op', value: c }); i++; continue; }
    let j = i;
    while (j < src.length && !' ()!&|='.includes(src[j])) j++;
    out.push({ kind: 'word', value: src.slice(i, j) });
    i = j;
  }
  return out;
}

/** Evaluates a `when` clause against a context. */
export function evaluateWhen(clause: string, ctx: WhenContext): boolean {
  const tokens = tokenize(clause);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isOp = (v: string) => { const t = peek(); return t?.kind === 'op' && t.value === v; };
  const or = (): boolean => {
    let v = and();
    while (isOp('||')) { pos++; const r = and(); v = v || r; }
    return v;
  };
  const and = (): boolean => {
    let v = unary();
    while (isOp('&&')) { pos++; const r = unary(); v = v && r; }
    return v;
  };
  const unary = (): boolean => {
    if (isOp('!')) { pos++; return !unary(); }
    if (isOp('(')) {
      pos++;
      const v = or();
      if (!isOp(')')) throw new Error(`missing ) in ${clause}`);
      pos++;
      return v;
    }
    const t = tokens[pos++];
    if (t?.kind !== 'word') throw new Error(`unexpected token at ${pos} in ${clause}`);
    const value = ctx[t.value];
    if (isOp('==') || isOp('!=')) {
      const op = (tokens[pos++] as { value: string }).value;
      const rhs = tokens[pos++];
      const eq = String(value) === (rhs as { value: string }).value;
      return op === '==' ? eq : !eq;
    }
    if (isOp('=~')) {
      pos++;
      const re = tokens[pos++];
      return re.kind === 'regex' && typeof value === 'string' && re.value.test(value);
    }
    return !!value;
  };
  const v = or();
  if (pos !== tokens.length) throw new Error(`trailing tokens in ${clause}`);
  return v;
}
