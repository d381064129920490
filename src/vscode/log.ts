// The "Harbor Runs" log output channel (owned by the host context), and "Show Log" on error messages.
import * as vscode from 'vscode';

export type Log = vscode.LogOutputChannel;

export function createLog(): Log {
  return vscode.window.createOutputChannel('Harbor Runs', { log: true });
}

/** Logs an error and shows it with a "Show Log" button. */
export async function showError(log: Log, message: string, error?: unknown): Promise<void> {
  const detail = error instanceof Error ? (error.stack ?? error.message) : error !== undefined ? String(error) : '';
  log.error(detail ? `${message}\n${detail}` : message);
  const pick = await vscode.window.showErrorMessage(message, 'Show Log');
  if (pick === 'Show Log') log.show(true);
}
