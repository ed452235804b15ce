/**
 * zot guards in front of every tool of VS Code's agent: the agent hook file
 * (`zot-extensions.json` in `~/.copilot/hooks` for every workspace, or in the
 * workspace's `.github/hooks`) whose commands run `zot-host hook`, and this
 * window's side of it: while a hook file of ours exists, the window answers
 * hooks for its folders through the loopback server (with the token the file
 * holds, in a `<pid>.json` entry of the windows folder), so a guard costs a
 * request to extensions already running, the ones the user allowed.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostManager } from '../activation/hostManager.js';
import { projectDirs } from '../activation/settings.js';
import type { ZotMcpProvider } from '../mcp/mcpProvider.js';
import type { UiTrace } from '../ui/trace.js';
import { HOOK_FILE_NAME, hookFileText, keepOutOfGit, newToken, readOurs, tokenOf } from './hookFile.js';
import { t } from '../l10n.js';

export type HookScope = 'user' | 'workspace';

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

  /**
   * At activation: a hook file of ours that exists is brought up to date, and
   * this window answers its hooks. A workspace's file is taken up only in a
   * trusted workspace, and its token never: a file that came with the
   * workspace is not the user's, so it gets this window's token, from the
   * user's own file or a new one.
   */
  async start(): Promise<void> {
    const user = this.fileOf('user')!;
    const ours = await readOurs(user);
    if (ours) {
      const token = tokenOf(ours) ?? newToken();
      await this.write(user, token);
      await this.serve(token);
    }
    const workspace = this.fileOf('workspace');
    if (workspace && vscode.workspace.isTrusted && (await readOurs(workspace))) {
      const token = this.token ?? newToken();
      await this.write(workspace, token);
      await this.serve(token);
    }
  }

  /** Zot: Install Agent Hooks. `scope` asked when not given. */
  async install(scope?: unknown): Promise<{ file: string; scope: HookScope } | undefined> {
    const chosen = scope === 'user' || scope === 'workspace' ? scope : await pickScope(this.fileOf('workspace') !== undefined);
    if (!chosen) return undefined;
    const file = this.fileOf(chosen);
    if (!file) {
      void vscode.window.showWarningMessage(t('Open a folder first: a workspace hook file lives in its .github/hooks folder.'));
      return undefined;
    }
    // One token a window: the user's own file's when there is one (a workspace's file is never trusted with it).
    const token = this.token ?? (chosen === 'user' ? tokenOf(await readOurs(file)) : undefined) ?? newToken();
    await this.write(file, token);
    if (chosen === 'workspace') await keepOutOfGit(file);
    await this.serve(token);
    const where = chosen === 'user' ? 'every workspace' : 'this workspace';
    this.d.log(`agent hooks installed for ${where}: ${file}`);
    this.d.trace.record('hooks-installed', { file, scope: chosen });
    const said = chosen === 'user' ? t('zot guards now stand in front of the agent\'s tools in every workspace. The hook file: {0}', file) : t('zot guards now stand in front of the agent\'s tools in this workspace. The hook file: {0}', file);
    void vscode.window.showInformationMessage(said, t('Open File')).then((c) => (c ? vscode.window.showTextDocument(vscode.Uri.file(file)) : undefined));
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
    void vscode.window.showInformationMessage(removed.length ? t('zot guards no longer stand in front of the agent\'s tools (removed {0}).', removed.join(', ')) : t('No zot agent hook file was found.'));
    return removed;
  }

  private async write(file: string, token: string): Promise<void> {
    const text = hookFileText({ runtime: process.execPath, cli: path.join(this.d.context.extensionPath, 'dist', 'cli.js'), zotHome: this.d.manager.view.zotHome, token, windows: this.windowsDir() });
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // The token is in it: readable by the user only.
    await fsp.writeFile(file, text, { mode: 0o600 });
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
    { label: t('Every workspace'), description: path.join('~', '.copilot', 'hooks', HOOK_FILE_NAME), detail: t('zot\'s global guards check the agent\'s tool calls in every workspace'), scope: 'user' },
  ];
  if (hasFolder) items.push({ label: t('This workspace'), description: path.join('.github', 'hooks', HOOK_FILE_NAME), detail: t('Only in this workspace; the file holds a token of this machine, so git is told to leave it out'), scope: 'workspace' });
  return (await vscode.window.showQuickPick(items, { title: t('Install Agent Hooks: zot guards in front of the agent\'s tools') }))?.scope;
}

