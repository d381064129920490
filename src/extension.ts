// The extension's entry: activation creates the one host context (src/vscode/hostContext.ts), which registers
// everything and is disposed with the extension; it is also what the integration tests get as the exports.
import type * as vscode from 'vscode';
import { type HarborRunsApi, HostContext } from './vscode/hostContext';

export type { HarborRunsApi };

export function activate(context: vscode.ExtensionContext): HarborRunsApi {
  return HostContext.activate(context);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions (the host context).
}
