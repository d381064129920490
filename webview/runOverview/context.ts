// What the dashboard's parts share: the channel to the host, the view state that survives live updates, hide and
// reload (filters, sort, selection, pivot orientation, scatter axis, training range), and the outcome labels.
import * as z from 'zod/mini';
import type { WebviewMessage } from '../../src/protocol/runOverview';
import type { TableText } from '../../src/core/dashboard/tableText';
import { toCsv, toMarkdown } from '../../src/core/dashboard/tableText';
import { button, el } from './dom';

export const DashStateSchema = z.object({
  text: z.catch(z.string().check(z.maxLength(1000)), ''),
  outcome: z.catch(z.string().check(z.maxLength(40)), ''),
  cause: z.catch(z.string().check(z.maxLength(4000)), ''),
  rewardMin: z.catch(z.nullable(z.number()), null),
  rewardMax: z.catch(z.nullable(z.number()), null),
  onlyProvenance: z.catch(z.boolean(), false),
  sort: z.catch(z.string().check(z.maxLength(40)), 'id'),
  sortDesc: z.catch(z.boolean(), false),
  selected: z.catch(z.nullable(z.string().check(z.maxLength(4000))), null),
  tableScroll: z.catch(z.number(), 0),
  pivotColumns: z.catch(z.enum(['model', 'harness']), 'model'),
  scatterAxis: z.catch(z.string().check(z.maxLength(40)), ''),
  trainingFrom: z.catch(z.nullable(z.number()), null),
  trainingTo: z.catch(z.nullable(z.number()), null),
});
export type DashState = z.infer<typeof DashStateSchema>;

export function defaultDashState(): DashState {
  return DashStateSchema.parse({});
}

export interface DashContext {
  post(m: WebviewMessage): void;
  state: DashState;
  /** Persists the state (vscode.setState) after a change. */
  save(): void;
  outcomeLabel(o: string): string;
}

/**
 * Copy buttons for a table: the text goes to the host, which puts it on the clipboard. `table` may wait (the task
 * table waits until every page of its rows is in, so what is copied is the whole table, not the rows loaded so far).
 */
export function copyButtons(ctx: DashContext, what: string, table: () => TableText | Promise<TableText>): HTMLElement {
  const bar = el('span', 'copy-buttons');
  const md = button('Markdown', 'copy-md', 'copy', `Copy ${what} as Markdown`);
  const csv = button('CSV', 'copy-csv', 'copy', `Copy ${what} as CSV`);
  const copy = async (format: 'markdown' | 'csv'): Promise<void> => {
    const t = await table();
    ctx.post({ type: 'copy', format, what, rows: t.rows.length, text: format === 'csv' ? toCsv(t) : toMarkdown(t) });
  };
  md.addEventListener('click', () => { void copy('markdown'); });
  csv.addEventListener('click', () => { void copy('csv'); });
  bar.append(md, csv);
  return bar;
}

/** A section with a heading, optional copy buttons and a plain table (cells as text). */
export function tableSection(ctx: DashContext, id: string, title: string, t: TableText, note?: string): HTMLElement {
  const s = el('section', `dash-section ${id}`);
  s.id = id;
  const h = el('h2', undefined, title);
  h.append(copyButtons(ctx, title, () => t));
  s.append(h, plainTable(t));
  if (note) s.append(el('p', 'note', note));
  return s;
}

export function plainTable(t: TableText, numericFrom = 1): HTMLTableElement {
  const table = el('table', 'data');
  const thead = el('thead');
  const hr = el('tr');
  t.headers.forEach((x, i) => { const th = el('th', i >= numericFrom ? 'num' : undefined, x); th.scope = 'col'; hr.append(th); });
  thead.append(hr);
  const body = el('tbody');
  for (const r of t.rows) {
    const tr = el('tr');
    r.forEach((x, i) => tr.append(el('td', i >= numericFrom ? 'num' : undefined, x)));
    body.append(tr);
  }
  table.append(thead, body);
  return table;
}
