// The "Harbor Runs" log output channel, and "Show Log" on error messages.
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function log(): vscode.LogOutputChannel {
  if (!channel) channel = vscode.window.createOutputChannel('Harbor Runs', { log: true });
  return channel;
}

export function disposeLog(): void {
  channel?.dispose();
  channel = undefined;
}

/** Logs an error and shows it with a "Show Log" button. */
export async function showError(message: string, error?: unknown): Promise<void> {
  const detail = error instanceof Error ? (error.stack ?? error.message) : error !== undefined ? String(error) : '';
  log().error(detail ? `${message}\n${detail}` : message);
  const pick = await vscode.window.showErrorMessage(message, 'Show Log');
  if (pick === 'Show Log') log().show(true);
}
