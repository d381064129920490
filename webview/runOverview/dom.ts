// DOM helpers of the Run Overview webview: elements built with textContent only (every string from a run is
// untrusted), SVG elements, codicons, number formats, and the theme's chart colours read from --vscode-* tokens.
import { el } from '../lib/dom';
import { formatReward } from '../../src/core/format';
import { formatDuration } from '../../src/core/trajectory/document';

export { el };

const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export function codicon(id: string, extra = ''): HTMLSpanElement {
  const [name, mod] = id.split('~');
  const s = el('span', `codicon codicon-${name}${mod ? ` codicon-modifier-${mod}` : ''}${extra ? ` ${extra}` : ''}`);
  s.setAttribute('aria-hidden', 'true');
  return s;
}

export function button(label: string, cls: string, icon?: string, title?: string): HTMLButtonElement {
  const b = el('button', `btn ${cls}`);
  b.type = 'button';
  if (icon) b.append(codicon(icon));
  b.append(el('span', undefined, label));
  if (title) b.title = title;
  return b;
}

export const dash = '—';

export function fmtNum(v: number | null | undefined, digits = 3): string {
  return v === null || v === undefined || !Number.isFinite(v) ? dash : v.toFixed(digits);
}

/** A reward as people read it (the core's one formatter). */
export const fmtReward = formatReward;

export function fmtInt(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return dash;
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toFixed(2)}G`;
  if (a >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (a >= 1e4) return `${(v / 1e3).toFixed(1)}k`;
  return String(Math.round(v));
}

export function fmtCost(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return dash;
  return v >= 100 ? `$${v.toFixed(0)}` : v >= 1 ? `$${v.toFixed(2)}` : `$${v.toFixed(4)}`;
}

/** Seconds as "5.2s", "3m 04s", "1h 02m" (the core's one duration formatter). */
export function fmtDuration(s: number | null | undefined): string {
  return formatDuration(s === null || s === undefined ? null : s * 1000);
}

export function pct(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? dash : `${(v * 100).toFixed(1)}%`;
}

/** A --vscode-* token's value in the current theme (with a fallback for tokens a theme leaves out). */
export function themeColor(token: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(token).trim();
  return v || fallback;
}

export const OUTCOME_COLOR_TOKENS: Record<string, [string, string]> = {
  passed: ['--vscode-testing-iconPassed', '#388a34'],
  failed: ['--vscode-testing-iconFailed', '#c72e0f'],
  'agent-error': ['--vscode-charts-orange', '#d18616'],
  truncated: ['--vscode-charts-yellow', '#bf8803'],
  'infra-error': ['--vscode-charts-purple', '#652d90'],
  cancelled: ['--vscode-disabledForeground', '#888888'],
  running: ['--vscode-charts-blue', '#1a85ff'],
  incomplete: ['--vscode-descriptionForeground', '#717171'],
  missing: ['--vscode-errorForeground', '#f48771'],
  'no-result': ['--vscode-descriptionForeground', '#717171'],
};

export function outcomeColor(o: string): string {
  const [t, f] = OUTCOME_COLOR_TOKENS[o] ?? ['--vscode-foreground', '#888888'];
  return themeColor(t, f);
}

/** A counter badge (@vscode-elements/elements' vscode-badge). */
export function badge(n: number): HTMLElement {
  const b = document.createElement('vscode-badge');
  b.setAttribute('variant', 'counter');
  b.textContent = String(n);
  return b;
}
