/**
 * The `zot.*` settings, read once per host generation. Settings that change
 * what runs (home, paths, timings) make the host start over; the rest are
 * read where they are used.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultZotHome, type Timing, type TraceLevel } from '../../host/index.js';
import { parseJsonc } from './jsonc.js';

export const SECTION = 'zot';

/** Settings whose change means a new host (they decide what runs). */
export const HOST_SETTINGS = ['zot.home', 'zot.extensionPaths'];
/** Settings the running host takes as they change, without restarting anything. */
export const TIMING_SETTINGS = ['zot.toolTimeoutSeconds', 'zot.readyGraceSeconds'];

export type PanelStyle = 'auto' | 'quickPick' | 'webview';

export interface ZotSettings {
  /** Absolute, or undefined for `$ZOT_HOME` / the platform default. */
  zotHome: string | undefined;
  /** Explicit extension folders, absolute, in the order given. */
  extensionPaths: string[];
  /** Those of `extensionPaths` that come from workspace settings: code the workspace chose, gated like project-local ones. */
  workspacePaths: ReadonlySet<string>;
  /** zot.home comes from the workspace: what its extensions/ holds is the workspace's code, gated like project-local ones. */
  homeFromWorkspace: boolean;
  timing: Partial<Timing>;
}

/** The folder relative paths resolve against, and `cwd` of global and explicit extensions: the first workspace folder. */
export function projectDir(): string | undefined {
  return projectDirs()[0];
}

/** Every workspace folder on disk, in the workspace's order: each one's .zot/extensions is loaded. */
export function projectDirs(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export function readSettings(): ZotSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const base = projectDir() ?? os.homedir();
  const trusted = vscode.workspace.isTrusted;

  // zot.home is restricted: an untrusted workspace cannot point it elsewhere.
  const home = config.inspect<string>('home');
  const fromWorkspaceHome = trusted ? home?.workspaceFolderValue ?? home?.workspaceValue : undefined;
  const homeValue = fromWorkspaceHome ?? home?.globalValue ?? '';
  const zotHome = homeValue.trim() ? resolvePath(homeValue.trim(), base) : undefined;

  // Workspace values replace user ones (arrays do not merge). An untrusted
  // workspace's value is hidden by VS Code (the setting is restricted); it is
  // read from the folder's settings file instead, so those folders are listed
  // as held rather than silently missing. They never start while untrusted.
  const paths = config.inspect<string[]>('extensionPaths');
  const fromWorkspace = paths?.workspaceFolderValue ?? paths?.workspaceValue ?? (trusted ? undefined : untrustedWorkspaceValue('zot.extensionPaths'));
  const chosen = (fromWorkspace ?? paths?.globalValue ?? []).filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  const extensionPaths = chosen.map((p) => resolvePath(p.trim(), base));
  const workspacePaths = new Set(fromWorkspace ? extensionPaths : []);

  const timing: Partial<Timing> = {};
  const toolTimeout = config.get<number>('toolTimeoutSeconds');
  if (typeof toolTimeout === 'number' && toolTimeout > 0) timing.toolTimeoutMs = Math.round(toolTimeout * 1000);
  const grace = config.get<number>('readyGraceSeconds');
  if (typeof grace === 'number' && grace >= 0) timing.readyGraceMs = Math.round(grace * 1000);

  return { zotHome, extensionPaths, workspacePaths, homeFromWorkspace: fromWorkspaceHome !== undefined && fromWorkspaceHome.trim() !== '', timing };
}

/**
 * The zot home of the user's own settings (never a workspace's): what the
 * agent hook file names, since that file runs in every project, the hook
 * asks no consent, and a folder one workspace chose is that workspace's code.
 * Relative to the user's home folder, else `$ZOT_HOME` / the platform default.
 */
export function userZotHome(): string {
  const value = vscode.workspace.getConfiguration(SECTION).inspect<string>('home')?.globalValue;
  return typeof value === 'string' && value.trim() ? resolvePath(value.trim(), os.homedir()) : defaultZotHome();
}

/** zot.hooks.failClosed, from the user's own settings only (a workspace cannot open what the user closed). */
export function hooksFailClosed(): boolean {
  return vscode.workspace.getConfiguration(SECTION).inspect<boolean>('hooks.failClosed')?.globalValue === true;
}

/** How zot tools are offered to agent mode: a server per extension, or one for all (one approval covers every tool). */
export function mcpServers(): 'perExtension' | 'one' {
  return vscode.workspace.getConfiguration(SECTION).get<string>('mcp.servers') === 'one' ? 'one' : 'perExtension';
}

export function panelStyle(): PanelStyle {
  const v = vscode.workspace.getConfiguration(SECTION).get<string>('panels.style');
  return v === 'quickPick' || v === 'webview' ? v : 'auto';
}

/** A setting as the first folder's .vscode/settings.json has it (only needed where VS Code hides it). */
function untrustedWorkspaceValue(key: string): string[] | undefined {
  const dir = projectDir();
  if (!dir) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, '.vscode', 'settings.json'), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseJsonc(text);
  const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[key] : undefined;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function resolvePath(p: string, base: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(os.homedir(), p.slice(2));
  return path.resolve(base, p);
}

/** Most model steps in one @zot request. */
export function chatMaxSteps(): number {
  return Math.max(1, vscode.workspace.getConfiguration(SECTION).get<number>('chat.maxSteps') ?? 25);
}

/** `zot.trace`: anything but the two levels is off. */
export function traceLevel(): TraceLevel {
  const v = vscode.workspace.getConfiguration(SECTION).get<string>('trace');
  return v === 'messages' || v === 'verbose' ? v : 'off';
}
