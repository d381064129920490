// The extension's entry: activation creates the one host context (src/vscode/hostContext.ts), which registers
// everything and is disposed with the extension; it is also what the integration tests get as the exports.
import type * as vscode from 'vscode';
import { type HarborRunsApi, HostContext } from './vscode/hostContext';
import { startupBegin, startupLogTo, startupMark } from './vscode/startupTimes';

export type { HarborRunsApi };

export function activate(context: vscode.ExtensionContext): HarborRunsApi {
  startupBegin();
  const ctx = HostContext.activate(context);
  startupMark('activated');
  startupLogTo((m) => ctx.log.info(m));
  return ctx;
}

export function deactivate(): void {
  // Everything the host context registered is disposed with context.subscriptions.
}
