// Viewer data (docs/formats.md#viewer-data): two axes cross at a cell keyed "<model>|<harness>"; which one is the column is a view
// choice. This computes, over (task, cell) units, pass@1 / pass@k per cell, per model and per harness, beside what
// the dataset's summary.json recorded, and the project's support tiers. The webview transposes the cell table.
import type { Attempt, Run } from '../model';
import { passAtK } from '../passAtK';
import type { AxisRow, Pivot, PivotCell } from '../../protocol/dashboard';
import { meanOf } from './stats';

/** Model and harness of a viewer-data attempt (its details, else its cell key split at the first "|"). */
export function axesOf(a: Attempt): { model: string; harness: string } {
  const m = a.details?.model;
  const h = a.details?.harness;
  if (typeof m === 'string' && typeof h === 'string') return { model: m, harness: h };
  const cell = a.cell ?? '';
  const bar = cell.indexOf('|');
  return bar < 0 ? { model: cell, harness: '' } : { model: cell.slice(0, bar), harness: cell.slice(bar + 1) };
}

interface Unit { model: string; harness: string; rewards: (number | null)[]; turns: (number | null | undefined)[] }

/** One unit per (task, cell), its attempts in attempt order. */
export function cellUnits(run: Run): Unit[] {
  const units: Unit[] = [];
  for (const t of run.tasks) {
    const byCell = new Map<string, Unit & { idx: number[] }>();
    for (const a of t.attempts) {
      const { model, harness } = axesOf(a);
      const key = `${model}|${harness}`;
      let u = byCell.get(key);
      if (!u) { u = { model, harness, rewards: [], turns: [], idx: [] }; byCell.set(key, u); }
      u.rewards.push(a.reward);
      u.turns.push(a.nTurns);
      u.idx.push(a.index);
    }
    for (const u of byCell.values()) {
      const order = u.idx.map((_, i) => i).sort((x, y) => u.idx[x] - u.idx[y]);
      units.push({ model: u.model, harness: u.harness, rewards: order.map((i) => u.rewards[i]), turns: u.turns });
    }
  }
  return units;
}

function recordedRows(run: Run, axis: 'by_model' | 'by_harness', nameKey: 'model' | 'harness', kMax: number): Map<string, { p1: number | null; pk: number | null }> {
  const out = new Map<string, { p1: number | null; pk: number | null }>();
  const rows = run.recorded?.[axis];
  if (!Array.isArray(rows)) return out;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  for (const r of rows) {
    if (!r || typeof r !== 'object') continue;
    const o = r as Record<string, unknown>;
    if (typeof o[nameKey] !== 'string') continue;
    out.set(o[nameKey] as string, { p1: num(o['pass@1']), pk: num(o[`pass@${kMax}`]) });
  }
  return out;
}

function axisRows(units: Unit[], by: 'model' | 'harness', kMax: number, recorded: Map<string, { p1: number | null; pk: number | null }>): AxisRow[] {
  const names = [...new Set(units.map((u) => u[by]))].sort((a, b) => a.localeCompare(b));
  return names.map((name) => {
    const us = units.filter((u) => u[by] === name);
    const p1 = passAtK(us, 1);
    const pk = passAtK(us, kMax);
    const rec = recorded.get(name);
    return {
      name, cells: us.length, passAt1: p1.value, passAtK: pk.value, nMeasured: p1.nMeasured, nAllInfra: p1.nAllInfra,
      meanTurns: meanOf(us.flatMap((u) => u.turns)), recordedPassAt1: rec?.p1 ?? null, recordedPassAtK: rec?.pk ?? null,
    };
  });
}

export function viewerPivot(run: Run): Pivot | null {
  if (run.kind !== 'viewer-data' || run.tasks.length === 0) return null;
  const units = cellUnits(run);
  const kMax = Math.max(1, ...units.map((u) => u.rewards.length));
  const models = [...new Set(units.map((u) => u.model))].sort((a, b) => a.localeCompare(b));
  const harnesses = [...new Set(units.map((u) => u.harness))].sort((a, b) => a.localeCompare(b));
  const cells: PivotCell[] = [];
  for (const model of models) {
    for (const harness of harnesses) {
      const us = units.filter((u) => u.model === model && u.harness === harness);
      if (us.length === 0) continue;
      const p1 = passAtK(us, 1);
      const pk = passAtK(us, kMax);
      cells.push({
        model, harness, units: us.length, attempts: us.reduce((s, u) => s + u.rewards.length, 0),
        passAt1: p1.value, passAtK: pk.value, nMeasured: p1.nMeasured, nAllInfra: p1.nAllInfra,
        meanReward: meanOf(us.flatMap((u) => u.rewards)),
      });
    }
  }
  const support = Object.entries(run.support ?? {}).map(([harness, s]) => ({ harness, tier: s.tier, caveats: s.caveats }));
  return {
    models, harnesses, kMax, cells,
    byModel: axisRows(units, 'model', kMax, recordedRows(run, 'by_model', 'model', kMax)),
    byHarness: axisRows(units, 'harness', kMax, recordedRows(run, 'by_harness', 'harness', kMax)),
    support,
  };
}

/** The cell table as the webview lays it out: rows of one axis, columns of the other (the pivot, both ways). */
export function pivotGrid(p: Pivot, columns: 'model' | 'harness'): { rows: string[]; columns: string[]; at: (row: string, col: string) => PivotCell | undefined } {
  const cols = columns === 'model' ? p.models : p.harnesses;
  const rows = columns === 'model' ? p.harnesses : p.models;
  const index = new Map(p.cells.map((c) => [`${c.model}|${c.harness}`, c]));
  return {
    rows, columns: cols,
    at: (row, col) => index.get(columns === 'model' ? `${col}|${row}` : `${row}|${col}`),
  };
}
