// Types of workbench.js (Playwright helpers for the code-server workbench).
import type { FrameLocator, Locator, Page } from 'playwright-core';

export function waitForWorkbench(page: Page, timeout?: number): Promise<void>;
export function widenSideBar(page: Page, width: number): Promise<void>;
export function activityItem(page: Page, title: string): Locator;
export function paneHeader(page: Page, view: string): Locator;
export function openView(page: Page, container: string, view: string, timeout?: number): Promise<Locator>;
export function treeRow(page: Page, label: string | RegExp): Locator;
export function treeItem(page: Page, label: string): Locator;
export function treeRowTexts(page: Page): Promise<string[]>;
export function expand(page: Page, target: string | RegExp | Locator, timeout?: number): Promise<Locator>;
export function collapse(page: Page, target: string | RegExp | Locator): Promise<Locator>;
export function webviewLocator(page: Page, css: string, timeout?: number): Promise<Locator>;
export function webviewFrame(page: Page, css: string, timeout?: number): Promise<FrameLocator>;
export function openProblems(page: Page): Promise<void>;
export function runCommand(page: Page, title: string): Promise<void>;
export function handleHook(page: Page, line: string, dirs: { shotDir: string; hookDir: string }): Promise<boolean>;
export function textMatcher(label: string | RegExp): RegExp;
