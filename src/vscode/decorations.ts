// Badges and error / warning colours on tree items of missing or stale evidence.
// Items that have no file of their own get a URI in a custom scheme that carries the flag itself, so the provider
// is stateless: the URI says what to show (badge, severity, reason).
import * as vscode from 'vscode';
import type { Flag } from '../views/tree/describe';

export const FLAG_SCHEME = 'harbor-runs-flag';

function shortHash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export function flagUri(id: string, flag: Flag): vscode.Uri {
  const q = new URLSearchParams({ b: flag.badge, s: flag.severity, r: flag.reason });
  return vscode.Uri.from({ scheme: FLAG_SCHEME, path: `/${shortHash(id)}`, query: q.toString() });
}

export function flagOf(uri: vscode.Uri): Flag | undefined {
  if (uri.scheme !== FLAG_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const badge = q.get('b');
  const severity = q.get('s');
  if (!badge || (severity !== 'error' && severity !== 'warning')) return undefined;
  return { badge, severity, reason: q.get('r') ?? '' };
}

export class FlagDecorationProvider implements vscode.FileDecorationProvider {
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const flag = flagOf(uri);
    if (!flag) return undefined;
    const color = new vscode.ThemeColor(flag.severity === 'error' ? 'list.errorForeground' : 'list.warningForeground');
    return new vscode.FileDecoration(flag.badge.slice(0, 2), flag.reason, color);
  }
}
