// Placeholder entry point; the real activation lands with the Runs sidebar.
import * as vscode from 'vscode';
export function activate(_context: vscode.ExtensionContext): void {}
export function deactivate(): void {}
