/**
 * zot guards in front of every tool of VS Code's agent: the agent hook file
 * (`zot-extensions.json` in `~/.copilot/hooks` for every workspace, or in the
 * workspace's `.github/hooks`) whose commands run `zot-host hook`, and this
 * window's side of it: while a hook file of ours exists, the window answers
 * hooks for its folders through the loopback server (listed in the windows
 * folder, proving the token kept there: src/host/hooks/windows.ts), so a
 * guard costs a request to extensions already running, the ones the user
 * allowed.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import { hooksFailClosed, projectDirs, userZotHome } from '../core/settings.js';
import type { ZotMcpProvider } from '../mcp/mcpProvider.js';
import type { UiTrace } from '../ui/trace.js';
import { entryFileName, entryText, isOurPlugin, newToken, ownEntry, readToken, TOKEN_FILE, windowsFolder, type WrittenPlugin } from '../../host/hooks/index.js';
import { agentPluginDir, createAgentPlugin } from './agentPlugin.js';
import { HOOK_FILE_NAME, hookFileText, keepOutOfGit, readOurs, writeConfined } from './hookFile.js';
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
  private readonly subs = new DisposableStore();

  constructor(private readonly d: AgentHooksDeps) {
    this.subs.add(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.writeEntry()));
    // The hook files carry the user's zot home and zot.hooks.failClosed: rewritten when either changes.
    this.subs.add(vscode.workspace.onDidChangeConfiguration((e) => {
      if (this.active && (e.affectsConfiguration('zot.hooks.failClosed') || e.affectsConfiguration('zot.home'))) void this.start().catch((err: Error) => this.d.log(`the agent hook files were not brought up to date: ${err.message}`));
    }));
  }

  /** Whether this window answers agent hooks (a hook file of ours, or zot's agent plugin, exists). */
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
   * trusted workspace, and written only inside the workspace (a link it
   * brings is replaced, never followed).
   */
  async start(): Promise<void> {
    // zot's agent plugin runs the same hook with the same windows folder: this window answers it too.
    if (await isOurPlugin(agentPluginDir())) await this.serve();
    const user = this.fileOf('user')!;
    if (await readOurs(user)) {
      await this.write('user', user);
      await this.serve();
    }
    const workspace = this.fileOf('workspace');
    if (workspace && vscode.workspace.isTrusted && (await readOurs(workspace))) {
      try {
        await this.write('workspace', workspace);
        await this.serve();
      } catch (e) {
        this.d.log(`the workspace's agent hook file was left as it is: ${(e as Error).message}`);
      }
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
    try {
      await this.write(chosen, file);
    } catch (e) {
      this.d.log(`agent hooks not installed: ${(e as Error).message}`);
      void vscode.window.showErrorMessage(t('The agent hook file was not written: {0}', (e as Error).message));
      return undefined;
    }
    if (chosen === 'workspace') await keepOutOfGit(file).catch((e: Error) => this.d.log(`could not list ${file} in git's exclude file: ${e.message}`));
    await this.serve();
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
    // The agent plugin's hooks are still there to answer, if it is.
    if (!(await isOurPlugin(agentPluginDir()))) await this.stopServing();
    this.d.log(removed.length ? `agent hooks removed: ${removed.join(', ')}` : 'no agent hook file of zot to remove');
    this.d.trace.record('hooks-removed', { files: removed });
    void vscode.window.showInformationMessage(removed.length ? t('zot guards no longer stand in front of the agent\'s tools (removed {0}).', removed.join(', ')) : t('No zot agent hook file was found.'));
    return removed;
  }

  /**
   * The hook file names the user's own zot home, whatever this workspace
   * sets: it runs in every project and asks no consent. A workspace's file is
   * written only inside the workspace; the user's own where it is (a link
   * there is the user's).
   */
  private async write(scope: HookScope, file: string): Promise<void> {
    const text = hookFileText({ runtime: process.execPath, hook: path.join(this.d.context.extensionPath, 'dist', 'hook.js'), zotHome: userZotHome(), windows: this.windowsDir(), failClosed: hooksFailClosed() });
    if (scope === 'workspace') return writeConfined(projectDirs()[0]!, file, text);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, text, { mode: 0o600 });
    await fsp.chmod(file, 0o600);
  }

  /** Where windows that answer hooks list themselves: this extension's global storage on disk. */
  private windowsDir(): string {
    const storage = this.d.context.globalStorageUri;
    return windowsFolder(storage.scheme === 'file' ? storage.fsPath : undefined, os.homedir());
  }

  /** The windows folder, private to the user, and the token every window of it shares (made by the first). */
  private async sharedToken(): Promise<string> {
    const dir = this.windowsDir();
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    await fsp.chmod(dir, 0o700);
    const known = readToken(dir);
    if (known) return known;
    const file = path.join(dir, TOKEN_FILE);
    // One there that is not a private file holding a token is not trusted: it goes.
    if (await fsp.lstat(file).catch(() => undefined)) await fsp.rm(file, { force: true });
    // Written whole beside it, then linked in: a window starting at the same time never reads half a token, and the first one's stays.
    const temp = path.join(dir, `.${TOKEN_FILE}.${process.pid}.tmp`);
    await fsp.writeFile(temp, newToken(), { mode: 0o600, flag: 'w' });
    try {
      await fsp.link(temp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      await fsp.rm(temp, { force: true });
    }
    const token = readToken(dir);
    if (!token) throw new Error(`the hook token in ${file} could not be made private`);
    return token;
  }

  /** Zot: Create Agent Plugin (agentPlugin.ts); this window then answers the plugin's hooks, as a hook file's. */
  async createPlugin(where?: unknown, format?: unknown): Promise<WrittenPlugin | undefined> {
    const written = await createAgentPlugin({ extensionPath: this.d.context.extensionPath, windows: this.windowsDir(), log: this.d.log, trace: this.d.trace }, where, format);
    if (written) await this.serve().catch((e: Error) => this.d.log(`this window does not answer the agent plugin's hooks: ${e.message}`));
    return written;
  }

  /** Answers hooks with the shared token through the loopback server, and lists this window for zot-host to find. */
  private async serve(): Promise<void> {
    const token = await this.sharedToken();
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
    this.entry = path.join(dir, entryFileName(process.pid));
    await fsp.writeFile(this.entry, entryText(ownEntry(new URL(server.url).origin, projectDirs())), { mode: 0o600 });
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
    this.subs.dispose();
    this.changed.dispose();
    // The window is going: zot-host must not try it again.
    if (this.entry) void fsp.rm(this.entry, { force: true }).catch(() => undefined);
  }
}

async function pickScope(hasFolder: boolean): Promise<HookScope | undefined> {
  const items: (vscode.QuickPickItem & { scope: HookScope })[] = [
    { label: t('Every workspace'), description: path.join('~', '.copilot', 'hooks', HOOK_FILE_NAME), detail: t('zot\'s global guards check the agent\'s tool calls in every workspace'), scope: 'user' },
  ];
  if (hasFolder) items.push({ label: t('This workspace'), description: path.join('.github', 'hooks', HOOK_FILE_NAME), detail: t('Only in this workspace; the file names this machine\'s paths, so git is told to leave it out'), scope: 'workspace' });
  return (await vscode.window.showQuickPick(items, { title: t('Install Agent Hooks: zot guards in front of the agent\'s tools') }))?.scope;
}

