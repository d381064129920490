// What a .cpuprofile of the extension host says (bench/hostProfiler.ts): the functions with the most self time, and
// the longest stretches the thread was busy without a break (the event-loop blocks), each with its heaviest frames.
// Run: node out/bench/profileSummary.js <file.cpuprofile> [--only=<substring of a script url>]
import * as fs from 'node:fs';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

function frameName(f: CallFrame): string {
  const file = f.url.split('/').slice(-2).join('/');
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

export interface Block { startMs: number; ms: number; top: [string, number][] }

/** Top self time per frame, and the busy stretches longer than `minMs` (longest first). */
export function summarize(p: CpuProfile, minMs = 50): { self: [string, number][]; blocks: Block[]; totalMs: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const blocks: Block[] = [];
  let cur: { start: number; ms: number; frames: Map<string, number> } | undefined;
  let t = p.startTime;
  const close = () => {
    if (cur && cur.ms >= minMs) blocks.push({ startMs: (cur.start - p.startTime) / 1000, ms: cur.ms, top: [...cur.frames].sort((a, b) => b[1] - a[1]).slice(0, 8) });
    cur = undefined;
  };
  for (let i = 0; i < p.samples.length; i++) {
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    t += p.timeDeltas[i] ?? 0;
    const node = byId.get(p.samples[i])!;
    const name = node.callFrame.functionName;
    if (IDLE.has(name) && name !== '(garbage collector)') { close(); continue; }
    const key = frameName(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    cur ??= { start: t, ms: 0, frames: new Map() };
    cur.ms += dt;
    // Charge the sample to every distinct frame on its stack (inclusive time within the block).
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const f = frameName(byId.get(id)!.callFrame);
      if (seen.has(f) || f.startsWith('(root)')) continue;
      seen.add(f);
      cur.frames.set(f, (cur.frames.get(f) ?? 0) + dt);
    }
  }
  close();
  return { self: [...self].sort((a, b) => b[1] - a[1]), blocks: blocks.sort((a, b) => b.ms - a.ms), totalMs: (p.endTime - p.startTime) / 1000 };
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profileSummary <file.cpuprofile> [minMs]');
  const s = summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, Number(process.argv[3]) || 50);
  console.log(`${file}: ${s.totalMs.toFixed(0)} ms profiled`);
  console.log('self time (ms):');
  for (const [f, ms] of s.self.slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(8)}  ${f}`);
  console.log(`busy stretches ≥ ${Number(process.argv[3]) || 50} ms (${s.blocks.length}):`);
  for (const b of s.blocks.slice(0, 12)) {
    console.log(`  at +${b.startMs.toFixed(0)} ms: ${b.ms.toFixed(0)} ms`);
    for (const [f, ms] of b.top) console.log(`      ${ms.toFixed(0).padStart(6)}  ${f}`);
  }
}

if (require.main === module) main();
