/**
 * zot guards in front of every tool of VS Code's agent: the agent hook file
 * (`zot-extensions.json` in `~/.copilot/hooks` for every workspace, or in the
 * workspace's `.github/hooks`) whose commands run `zot-host hook`, and this
 * window's side of it: while a hook file of ours exists, the window answers
 * hooks for its folders through the loopback server (with the token the file
 * holds, in a `<pid>.json` entry of the windows folder), so a guard costs a
 * request to extensions already running, the ones the user allowed.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostManager } from '../activation/hostManager.js';
import { projectDirs } from '../activation/settings.js';
import type { ZotMcpProvider } from '../mcp/mcpProvider.js';
import type { UiTrace } from '../ui/trace.js';

/** The hooks zot installs: the two where a guard decides (the events cost a start each and decide nothing). */
export const INSTALLED_HOOKS = ['PreToolUse', 'UserPromptSubmit'] as const;
export const HOOK_FILE_NAME = 'zot-extensions.json';
/** VS Code's agent runs a hook for at most this long (seconds). */
const HOOK_TIMEOUT_S = 15;

export type HookScope = 'user' | 'workspace';

interface HookCommand { type: 'command'; command: string; env: Record<string, string>; timeout: number }
interface HookFile { hooks: Record<string, HookCommand[]> }

export interface AgentHooksDeps {
  context: vscode.ExtensionContext;
  manager: HostManager;
  mcp: ZotMcpProvider;
  log(line: string): void;
  trace: UiTrace;
}

export class AgentHooks implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when hooks are turned on or off in this window. */
  readonly onDidChange = this.changed.event;
  private token: string | undefined;
  private entry: string | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly d: AgentHooksDeps) {
    this.subs.push(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.writeEntry()));
  }

  /** Whether this window answers agent hooks (a hook file of ours exists). */
  get active(): boolean {
    return this.token !== undefined;
  }

  /** Where the hook file of `scope` goes; undefined for a workspace without a folder. */
  fileOf(scope: HookScope): string | undefined {
    if (scope === 'user') return path.join(os.homedir(), '.copilot', 'hooks', HOOK_FILE_NAME);
    const folder = projectDirs()[0];
    return folder && path.join(folder, '.github', 'hooks', HOOK_FILE_NAME);
  }

  /** At activation: a hook file of ours that exists is brought up to date, and this window answers its hooks. */
  async start(): Promise<void> {
    for (const scope of ['user', 'workspace'] as const) {
      const file = this.fileOf(scope);
      const existing = file ? await readOurs(file) : undefined;
      if (!file || !existing) continue;
      const token = tokenOf(existing) ?? this.token ?? newToken();
      await this.write(file, token);
      await this.serve(token);
    }
  }

  /** Zot: Install Agent Hooks. `scope` asked when not given. */
  async install(scope?: unknown): Promise<{ file: string; scope: HookScope } | undefined> {
    const chosen = scope === 'user' || scope === 'workspace' ? scope : await pickScope(this.fileOf('workspace') !== undefined);
    if (!chosen) return undefined;
    const file = this.fileOf(chosen);
    if (!file) {
      void vscode.window.showWarningMessage('Open a folder first: a workspace hook file lives in its .github/hooks folder.');
      return undefined;
    }
    const token = this.token ?? tokenOf(await readOurs(file)) ?? newToken();
    await this.write(file, token);
    await this.serve(token);
    const where = chosen === 'user' ? 'every workspace' : 'this workspace';
    this.d.log(`agent hooks installed for ${where}: ${file}`);
    this.d.trace.record('hooks-installed', { file, scope: chosen });
    void vscode.window.showInformationMessage(`zot guards now stand in front of the agent's tools in ${where}. The hook file: ${file}`, 'Open File').then((c) => c && vscode.window.showTextDocument(vscode.Uri.file(file)));
    return { file, scope: chosen };
  }

  /** Zot: Remove Agent Hooks: every hook file of ours, in both places. */
  async remove(): Promise<string[]> {
    const removed: string[] = [];
    for (const scope of ['user', 'workspace'] as const) {
      const file = this.fileOf(scope);
      if (file && (await readOurs(file))) {
        await fsp.rm(file, { force: true });
        removed.push(file);
      }
    }
    await this.stopServing();
    this.d.log(removed.length ? `agent hooks removed: ${removed.join(', ')}` : 'no agent hook file of zot to remove');
    this.d.trace.record('hooks-removed', { files: removed });
    void vscode.window.showInformationMessage(removed.length ? `zot guards no longer stand in front of the agent's tools (removed ${removed.join(', ')}).` : 'No zot agent hook file was found.');
    return removed;
  }

  private async write(file: string, token: string): Promise<void> {
    const cli = path.join(this.d.context.extensionPath, 'dist', 'cli.js');
    const env: Record<string, string> = {
      // VS Code's own runtime runs zot-host: no Node needed on the PATH.
      ELECTRON_RUN_AS_NODE: '1',
      ZOT_HOOK_TOKEN: token,
      ZOT_HOOK_WINDOWS: this.windowsDir(),
    };
    // Without a window for the project, the hook runs the global extensions itself; a project's own only ever run where they were allowed.
    const base = `${quote(process.execPath)} ${quote(cli)} hook`;
    const home = ` --home ${quote(this.d.manager.view.zotHome)}`;
    const hooks: HookFile = { hooks: Object.fromEntries(INSTALLED_HOOKS.map((e) => [e, [{ type: 'command', command: `${base} ${e} --no-project${home}`, env, timeout: HOOK_TIMEOUT_S }]])) };
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // The token is in it: readable by the user only.
    await fsp.writeFile(file, `${JSON.stringify(hooks, null, 2)}\n`, { mode: 0o600 });
    await fsp.chmod(file, 0o600);
  }

  /** Where windows that answer hooks list themselves: this extension's global storage on disk. */
  private windowsDir(): string {
    const storage = this.d.context.globalStorageUri;
    return storage.scheme === 'file' ? path.join(storage.fsPath, 'hook-windows') : path.join(os.homedir(), '.zot-extensions', 'hook-windows');
  }

  /** Answers hooks with `token` through the loopback server, and lists this window for zot-host to find. */
  private async serve(token: string): Promise<void> {
    const server = await this.d.mcp.ensureServer();
    server.setHookToken(token);
    const was = this.active;
    this.token = token;
    await this.writeEntry();
    if (!was) this.changed.fire();
  }

  private async writeEntry(): Promise<void> {
    if (!this.token) return;
    const server = await this.d.mcp.ensureServer();
    const dir = this.windowsDir();
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    this.entry = path.join(dir, `${process.pid}.json`);
    const url = new URL(server.url).origin;
    await fsp.writeFile(this.entry, JSON.stringify({ pid: process.pid, url, folders: projectDirs() }), { mode: 0o600 });
  }

  private async stopServing(): Promise<void> {
    if (!this.token) return;
    this.token = undefined;
    (await this.d.mcp.ensureServer()).setHookToken(undefined);
    if (this.entry) await fsp.rm(this.entry, { force: true });
    this.entry = undefined;
    this.changed.fire();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
    // The window is going: zot-host must not try it again.
    if (this.entry) void fsp.rm(this.entry, { force: true }).catch(() => undefined);
  }
}

async function pickScope(hasFolder: boolean): Promise<HookScope | undefined> {
  const items: (vscode.QuickPickItem & { scope: HookScope })[] = [
    { label: 'Every workspace', description: path.join('~', '.copilot', 'hooks', HOOK_FILE_NAME), detail: 'zot\'s global guards check the agent\'s tool calls in every workspace', scope: 'user' },
  ];
  if (hasFolder) items.push({ label: 'This workspace', description: path.join('.github', 'hooks', HOOK_FILE_NAME), detail: 'Only in this workspace; the file can be committed for others (each of them installs zot too)', scope: 'workspace' });
  return (await vscode.window.showQuickPick(items, { title: 'Install Agent Hooks: zot guards in front of the agent\'s tools' }))?.scope;
}

/** The hook file at `file` when it is one zot wrote (its commands run zot-host hook). */
async function readOurs(file: string): Promise<HookFile | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as HookFile;
    const pre = parsed?.hooks?.PreToolUse?.[0];
    return typeof pre?.command === 'string' && / hook PreToolUse\b/.test(pre.command) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function tokenOf(file: HookFile | undefined): string | undefined {
  const t = file?.hooks?.PreToolUse?.[0]?.env?.ZOT_HOOK_TOKEN;
  return typeof t === 'string' && t.length >= 32 ? t : undefined;
}

const newToken = (): string => randomBytes(32).toString('base64url');

/** A path as one word of a shell command line. */
function quote(s: string): string {
  return process.platform === 'win32' ? `"${s.replace(/"/g, '""')}"` : `'${s.replace(/'/g, `'\\''`)}'`;
}
