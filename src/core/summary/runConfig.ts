// A minimal, indentation-based reader of the YAML subset a generated `run_config.yaml` uses (block mappings, block
// lists whose items may be mappings, plain/quoted scalars, `[]`/`{}`), and the identity the summary takes from it.
// It never throws: what it cannot read is left out.
export type Yaml = string | null | Yaml[] | { [k: string]: Yaml };

interface Line { indent: number; text: string }

function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) { if (c === q) q = null; continue; }
    if (c === '"' || c === "'") q = c;
    else if (c === '#' && (i === 0 || s[i - 1] === ' ' || s[i - 1] === '\t')) return s.slice(0, i);
  }
  return s;
}

function scalar(raw: string): Yaml {
  const s = raw.trim();
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === '[]') return [];
  if (s === '{}') return {};
  if ((s.startsWith('"') && s.endsWith('"') && s.length >= 2)) {
    try { return JSON.parse(s) as string; } catch { return s.slice(1, -1); }
  }
  if (s.startsWith("'") && s.endsWith("'") && s.length >= 2) return s.slice(1, -1).replace(/''/g, "'");
  if (s.startsWith('[') && s.endsWith(']')) return s.slice(1, -1).split(',').map((x) => scalar(x)).filter((x) => x !== null);
  return s;
}

/** Splits `key: value` (value may be empty); undefined when the text is not a mapping entry. */
function splitKey(text: string): [string, string] | undefined {
  let q: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) { if (c === q) q = null; continue; }
    if ((c === '"' || c === "'") && i === 0) { q = c; continue; }
    if (c === ':' && (i + 1 === text.length || text[i + 1] === ' ' || text[i + 1] === '\t')) {
      const k = scalar(text.slice(0, i));
      return [typeof k === 'string' ? k : String(k), text.slice(i + 1).trim()];
    }
  }
  return undefined;
}

class Parser {
  pos = 0;
  constructor(private readonly lines: Line[]) {}

  block(indent: number): Yaml {
    const l = this.lines[this.pos];
    if (!l || l.indent < indent) return null;
    return isItem(l.text) ? this.list(l.indent) : this.mapping(l.indent);
  }

  mapping(indent: number): Yaml {
    const out: { [k: string]: Yaml } = {};
    while (this.pos < this.lines.length) {
      const l = this.lines[this.pos];
      if (l.indent !== indent || isItem(l.text)) break;
      const kv = splitKey(l.text);
      this.pos++;
      if (!kv) continue;
      const [k, v] = kv;
      if (v !== '' && v !== '|' && v !== '>') { out[k] = scalar(v); continue; }
      const next = this.lines[this.pos];
      if (next && (next.indent > indent || (next.indent === indent && isItem(next.text)))) out[k] = this.block(next.indent);
      else out[k] = null;
    }
    return out;
  }

  list(indent: number): Yaml {
    const out: Yaml[] = [];
    while (this.pos < this.lines.length) {
      const l = this.lines[this.pos];
      if (l.indent !== indent || !isItem(l.text)) break;
      const rest = l.text === '-' ? '' : l.text.slice(2);
      if (rest.trim() === '') {
        this.pos++;
        const next = this.lines[this.pos];
        out.push(next && next.indent > indent ? this.block(next.indent) : null);
      } else if (splitKey(rest.trim())) {
        // `- key: v` starts a mapping whose keys sit two columns in.
        const inner = indent + 2 + (rest.length - rest.trimStart().length);
        this.lines[this.pos] = { indent: inner, text: rest.trim() };
        out.push(this.mapping(inner));
      } else {
        this.pos++;
        out.push(scalar(rest));
      }
    }
    return out;
  }
}

const isItem = (t: string): boolean => t === '-' || t.startsWith('- ');

/** Parses the YAML subset; null when nothing could be read. Never throws. */
export function parseSimpleYaml(text: string): Yaml {
  try {
    const lines: Line[] = [];
    for (const raw of text.split(/\r?\n/)) {
      const noComment = stripComment(raw.replace(/\t/g, '  '));
      if (!noComment.trim() || noComment.trim() === '---') continue;
      lines.push({ indent: noComment.length - noComment.trimStart().length, text: noComment.trim() });
    }
    if (!lines.length) return null;
    return new Parser(lines).block(lines[0].indent);
  } catch {
    return null;
  }
}

const asMap = (v: Yaml | undefined): { [k: string]: Yaml } | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
const asStr = (v: Yaml | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** What the summary takes from a generated run config (every field optional). */
export interface RunConfigIdentity {
  taskset?: string;
  agent?: string;
  /** Absolute dataset folder (`tasksets.<ts>.folder`). */
  datasetFolder?: string;
  /** `tasksets.<ts>.tasks`: task id → digest. */
  digests?: Record<string, string>;
  /** The resources server's `artifacts_dir` (absolute, at run time). */
  artifactsDir?: string;
  /** `datasets[].jsonl_fpath` of the resources server: the prepared rows (absolute, at run time). */
  rowsPath?: string;
  /** The resources server's config name (the rows' `task_source` label). */
  resourcesServer?: string;
  numRepeats?: number;
}

/** Reads the identity out of a parsed run config; {} when it holds none. Never throws. */
export function runConfigIdentity(doc: Yaml): RunConfigIdentity {
  const out: RunConfigIdentity = {};
  const top = asMap(doc);
  if (!top) return out;
  for (const [name, value] of Object.entries(top)) {
    const inst = asMap(value);
    if (!inst) continue;
    const servers = asMap(inst.resources_servers);
    if (servers) {
      for (const server of Object.values(servers)) {
        const s = asMap(server);
        if (!s) continue;
        const tasksets = asMap(s.tasksets);
        if (tasksets && !out.taskset) {
          const [ts, tsValue] = Object.entries(tasksets)[0] ?? [];
          if (ts) {
            out.taskset = ts;
            out.resourcesServer = name;
            const t = asMap(tsValue);
            out.datasetFolder = asStr(t?.folder);
            const tasks = asMap(t?.tasks);
            if (tasks) {
              out.digests = {};
              for (const [id, d] of Object.entries(tasks)) if (typeof d === 'string') out.digests[id] = d;
            }
          }
        }
        out.artifactsDir ??= asStr(s.artifacts_dir);
        const datasets = s.datasets;
        if (Array.isArray(datasets)) {
          for (const d of datasets) out.rowsPath ??= asStr(asMap(d)?.jsonl_fpath);
        }
      }
    }
    if (inst._inherit_from !== undefined && asMap(inst.responses_api_agents) && !out.agent) {
      out.agent = asStr(inst._inherit_from);
    }
  }
  const nr = asStr(top.num_repeats);
  if (nr && /^\d+$/.test(nr)) out.numRepeats = Number(nr);
  return out;
}
