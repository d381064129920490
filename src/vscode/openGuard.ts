// The one check before the extension opens a path a run names (a click in the Runs tree, a Run Overview cell or
// problem, Open as JSON): the path must lie in its run's folder by its text and, where the FsPort resolves links,
// by its real path (core/containment.ts). A refused path is not opened; the user is told why and may copy it.
import * as vscode from 'vscode';
import type { Run } from '../core/model';
import { containment } from '../core/containment';
import { isWithin } from '../core/paths';
import type { HostContext } from './hostContext';

/** A path the extension did not open, and why (HarborRunsApi.onDidRefuseOpen). */
export interface OpenRefusal {
  path: string;
  reason: string;
}

/** The run whose folder holds `p` by its text (the innermost), for a path that comes without its node. */
export function runHolding(ctx: HostContext, p: string): Run | undefined {
  let best: Run | undefined;
  for (const r of ctx.store.runs()) if (isWithin(p, r.root) && (!best || r.root.length > best.root.length)) best = r;
  return best;
}

/** Says why a path was not opened (a warning with Copy Path, the log, onDidRefuseOpen). */
export function sayRefused(ctx: HostContext, p: string, reason: string): void {
  ctx.log.warn(`not opened: ${reason}`);
  ctx.noteRefusal({ path: p, reason });
  void vscode.window.showWarningMessage(`Not opened: ${reason}. Open it yourself if you trust it.`, 'Copy Path').then((pick) => {
    if (pick === 'Copy Path') void vscode.env.clipboard.writeText(p);
  });
}

/**
 * Whether `p` may be opened as a file of `run` (the run holding it by its text when none is given; a path in no
 * run — an explorer file, a path typed by the user — is the user's own choice). Says why when it may not.
 */
export async function mayOpen(ctx: HostContext, p: string, run?: Run): Promise<boolean> {
  const r = run ?? runHolding(ctx, p);
  if (!r) return true;
  const c = await containment(ctx.fs, r.root, p);
  if (c.inside) return true;
  sayRefused(ctx, p, c.reason);
  return false;
}
