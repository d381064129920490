// Types of tools.js (plain CommonJS, shared by the shim, the UI test and the demo).
import type { Browser } from 'playwright-core';

export interface ToolPaths { node24: string; codeServer: string; chromium: string }
export interface CodeServer {
  port: number;
  pid: number;
  logFile: string;
  url(folder?: string): string;
  stop(): Promise<void>;
}
export interface StartOptions {
  tools: ToolPaths;
  userDataDir: string;
  extensionsDir: string;
  folder?: string;
  port?: number;
  smokeTestDriver?: boolean;
  env?: Record<string, string>;
  logFile?: string;
  startTimeoutMs?: number;
}
export function findRepoRoot(start: string): string;
export function toolsDir(): string;
export function toolPaths(): ToolPaths;
export function ensureTools(repoRoot: string): ToolPaths;
export function freePort(from?: number): Promise<number>;
export function mkTemp(prefix: string): string;
export function rmrf(p: string): void;
export function seedSettings(userDataDir: string, extra?: Record<string, unknown>): void;
export function startCodeServer(opts: StartOptions): Promise<CodeServer>;
export function installExtension(tools: ToolPaths, vsix: string, userDataDir: string, extensionsDir: string): { ok: boolean; output: string; status: number | null };
export function launchBrowser(tools: ToolPaths): Promise<Browser>;
export function killGroup(pid: number, signal?: NodeJS.Signals): void;
export function sleep(ms: number): Promise<void>;
export function tail(file: string, n?: number): string;
export function run(cmd: string, args: string[], opts?: { cwd?: string; env?: Record<string, string>; echo?: boolean }): Promise<{ status: number | null; output: string }>;
export const DEFAULT_SETTINGS: Record<string, unknown>;
export const CHROMIUM_ARGS: string[];
