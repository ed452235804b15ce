/**
 * The palette and view commands. Each one also takes its input as arguments
 * (`executeCommand('zot.runCommand', 'todo-add', 'milk')`), so it can be
 * driven without UI; without arguments it asks with a QuickPick or an input
 * box. Results are returned for callers that want them.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  globalExtensionsDir, projectExtensionsDir, RUNNING_STATES, type CommandOutcome, type ExtensionRef, type ExtensionRuntime,
} from '../../host/index.js';
import type { DisplayDocuments } from '../ui/display.js';
import type { HostManager } from '../activation/hostManager.js';
import { checkInstall, copyInto, installSamples, type SamplesResult } from '../../host/install.js';
import type { LogChannels } from '../ui/logs.js';
import { stateIcon, stateLook } from '../views/presentation.js';
import { diagnosticsMarkdown, reportTitle } from '../views/report.js';
import { projectDir, readSettings } from '../activation/settings.js';
import type { UiTrace } from '../testing/trace.js';
import { VIEW_ID, type Node } from '../views/tree.js';
import type { WorkspaceGate } from '../trust/workspaceGate.js';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  manager: HostManager;
  gate: WorkspaceGate;
  logs: LogChannels;
  display: DisplayDocuments;
  trace: UiTrace;
}

export interface RunResult {
  outcome: CommandOutcome['outcome'] | 'cancelled_by_user';
  extension: string | null;
  action?: string;
  error?: string;
  message: string;
}

/** How long a command may run before a cancellable progress notification appears. */
const PROGRESS_AFTER_MS = 1000;

export class Commands {
  constructor(private readonly d: CommandDeps) {}

  register(): vscode.Disposable[] {
    const r = (id: string, fn: (...args: unknown[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, fn);
    return [
      r('zot.runCommand', (a, b) => this.runCommand(a, b)),
      r('zot.reload', () => this.reload()),
      r('zot.startExtension', (a) => this.start(a)),
      r('zot.stopExtension', (a) => this.stop(a)),
      r('zot.restartExtension', (a) => this.restart(a)),
      r('zot.allowExtension', (a) => this.allow(a)),
      r('zot.showLog', (a) => this.showLog(a)),
      r('zot.showDiagnostics', () => this.showDiagnostics()),
      r('zot.openExtensionsFolder', (a) => this.openExtensionsFolder(a)),
      r('zot.revealExtensionFolder', (a) => this.revealExtensionFolder(a)),
      r('zot.openManifest', (a) => this.openManifest(a)),
      r('zot.installFromFolder', (a, b) => this.installFromFolder(a, b)),
      r('zot.installSamples', () => this.installSamples()),
      r('zot.resetWorkspacePermissions', () => this.resetPermissions()),
    ];
  }

  private get host() {
    return this.d.manager.host;
  }

  // ---- running zot commands ----

  /** `(name, args)` runs at once; a tree node or nothing asks for what is missing. */
  async runCommand(a?: unknown, b?: unknown): Promise<RunResult | undefined> {
    let name: string | undefined;
    let args: string | undefined;
    if (typeof a === 'string') {
      name = a.trim().replace(/^\//, '');
      args = typeof b === 'string' ? b : '';
    } else if (isNode(a) && a.kind === 'command') {
      name = a.name;
    }
    if (!name) {
      name = await this.pickCommand();
      if (!name) return undefined;
    }
    if (args === undefined) {
      const entry = this.host.findCommand(name);
      args = await vscode.window.showInputBox({
        title: `/${name}${entry ? ` — ${entry.extension}` : ''}`,
        prompt: entry?.description ? `${entry.description}. Arguments, or nothing:` : 'Arguments, or nothing:',
        placeHolder: 'arguments (optional)',
        ignoreFocusOut: true,
      });
      if (args === undefined) return { outcome: 'cancelled_by_user', extension: entry?.extension ?? null, message: 'cancelled' };
    }
    return this.run(name, args);
  }

  /** Runs `/name args`, shows what went wrong, and carries out the action. */
  async run(name: string, args: string): Promise<RunResult> {
    const source = new vscode.CancellationTokenSource();
    const work = this.host.invokeCommand(name, args, { token: source.token });
    let progressShown = false;
    const timer = setTimeout(() => {
      progressShown = true;
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Running /${name}…`, cancellable: true }, (_p, token) => {
        token.onCancellationRequested(() => source.cancel());
        return work;
      });
    }, PROGRESS_AFTER_MS);
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `/${name}` }, () => work);
    let outcome: CommandOutcome;
    try {
      outcome = await work;
    } finally {
      clearTimeout(timer);
      source.dispose();
    }
    this.d.trace.record('command-run', { command: name, args, outcome: outcome.outcome, extension: outcome.extension, progressShown });
    const result: RunResult = { outcome: outcome.outcome, extension: outcome.extension, message: outcome.message };
    if (outcome.outcome !== 'completed' || !outcome.response) {
      if (outcome.outcome !== 'canceled' && outcome.outcome !== 'abandoned') {
        this.error(`/${name}: ${outcome.message || outcome.outcome.replace('_', ' ')}`, outcome.extension ?? undefined);
      }
      return result;
    }
    const r = outcome.response;
    result.action = r.action;
    if (r.error) {
      result.error = r.error;
      this.error(`/${name}: ${r.error}`, outcome.extension ?? undefined);
      return result;
    }
    const rt = outcome.extension ? this.host.get(outcome.extension) : undefined;
    if (rt) await this.host.applyCommandResponse(rt, r);
    return result;
  }

  /** `submit_slash` from an extension: run `/name args` without the model. */
  async runSlash(text: string, from: ExtensionRef): Promise<void> {
    const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
    if (!m) return;
    const name = m[1]!;
    if (!this.host.findCommand(name)) {
      this.warn(`${from.name} asked to run /${name}, but no running extension provides that command.`);
      return;
    }
    await this.run(name, m[2] ?? '');
  }

  private async pickCommand(): Promise<string | undefined> {
    const commands = this.host.commands().filter((c) => c.active);
    if (commands.length === 0) {
      const loading = this.d.manager.loading;
      void vscode.window.showInformationMessage(loading ? 'Zot extensions are still starting; try again in a moment.' : 'No running zot extension has registered a command.', 'Show Zot Extensions').then((c) => {
        if (c) void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      });
      return undefined;
    }
    type Item = vscode.QuickPickItem & { name?: string };
    const items: Item[] = [];
    const byExt = new Map<string, typeof commands>();
    for (const c of commands) byExt.set(c.extension, [...(byExt.get(c.extension) ?? []), c]);
    for (const [ext, list] of byExt) {
      items.push({ label: ext, kind: vscode.QuickPickItemKind.Separator });
      for (const c of [...list].sort((x, y) => x.name.localeCompare(y.name))) {
        items.push({ label: `/${c.name}`, description: c.description, detail: undefined, name: c.name, iconPath: new vscode.ThemeIcon('symbol-method') });
      }
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Run Zot Extension Command',
      placeHolder: 'Pick a command of a zot extension',
      matchOnDescription: true,
    });
    return picked?.name;
  }

  // ---- lifecycle ----

  async reload(): Promise<{ name: string; state: string }[]> {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reloading zot extensions' }, () => this.d.manager.reload());
    this.d.logs.hostLog('reloaded');
    return this.host.extensions.map((r) => ({ name: r.name, state: r.state }));
  }

  async start(a?: unknown): Promise<string | undefined> {
    const rt = await this.pickExtension(a, 'Start which zot extension?', (r) => r.startable && (r.state === 'stopped' || r.state === 'failed' || r.state === 'held'));
    if (!rt) return undefined;
    if (rt.state === 'held') {
      // Starting a held one is an explicit "allow".
      await this.d.gate.allow(rt.name);
    } else {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Starting ${rt.name}` }, () => this.host.startExtension(rt.name));
    }
    return this.host.get(rt.name)?.state;
  }

  async stop(a?: unknown): Promise<string | undefined> {
    const rt = await this.pickExtension(a, 'Stop which zot extension?', (r) => RUNNING_STATES.has(r.state) || r.state === 'starting' || r.state === 'restarting');
    if (!rt) return undefined;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Stopping ${rt.name}` }, () => this.host.stopExtension(rt.name));
    return this.host.get(rt.name)?.state;
  }

  async restart(a?: unknown): Promise<string | undefined> {
    const rt = await this.pickExtension(a, 'Restart which zot extension?', (r) => r.startable && r.state !== 'held');
    if (!rt) return undefined;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Restarting ${rt.name}` }, () => this.host.restartExtension(rt.name));
    return this.host.get(rt.name)?.state;
  }

  async allow(a?: unknown): Promise<boolean> {
    const rt = await this.pickExtension(a, 'Allow which zot extension to run in this workspace?', (r) => r.state === 'held');
    if (!rt) return false;
    return this.d.gate.allow(rt.name);
  }

  async resetPermissions(): Promise<number> {
    const n = await this.d.gate.forgetAll();
    void vscode.window.showInformationMessage(n ? `Forgot ${n} answer${n === 1 ? '' : 's'} about zot extensions of this workspace.` : 'No zot extension of this workspace had been allowed or refused.');
    await this.d.manager.reload();
    return n;
  }

  // ---- logs and diagnostics ----

  async showLog(a?: unknown): Promise<string | undefined> {
    if (this.host.extensions.length === 0) {
      this.d.logs.show();
      return 'Zot Extensions';
    }
    const rt = await this.pickExtension(a, 'Show the log of which zot extension?', () => true);
    if (!rt) return undefined;
    this.d.logs.show(rt.name);
    return `Zot: ${rt.name}`;
  }

  async showDiagnostics(): Promise<string> {
    const project = projectDir();
    const uri = this.d.display.named(reportTitle(project));
    this.d.display.set(uri, this.diagnosticsText());
    const commands = await vscode.commands.getCommands(true);
    if (commands.includes('markdown.showPreview')) await vscode.commands.executeCommand('markdown.showPreview', uri);
    else await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return uri.toString();
  }

  /** The report, for the live update of an open diagnostics document. */
  diagnosticsText(): string {
    return diagnosticsMarkdown(this.host, {
      project: projectDir(),
      trusted: vscode.workspace.isTrusted,
      explicitPaths: readSettings().extensionPaths,
      vscodeVersion: vscode.version,
    });
  }

  // ---- folders and installs ----

  async openExtensionsFolder(a?: unknown): Promise<{ dir: string; how: string } | undefined> {
    const project = projectDir();
    let which = a === 'global' || a === 'project' ? a : undefined;
    if (!which) {
      if (!project) which = 'global';
      else {
        const pick = await vscode.window.showQuickPick([
          { label: 'Global', description: globalExtensionsDir(this.host.zotHome), detail: 'Extensions for every project (like zot\'s $ZOT_HOME/extensions)', which: 'global' as const },
          { label: 'This workspace', description: projectExtensionsDir(project), detail: 'Extensions of this project only; they run once you allow them', which: 'project' as const },
        ], { title: 'Open Zot Extensions Folder' });
        which = pick?.which;
      }
    }
    if (!which) return undefined;
    if (which === 'project' && !project) {
      this.warn('Open a folder first: project extensions live in its .zot/extensions folder.');
      return undefined;
    }
    const dir = which === 'global' ? globalExtensionsDir(this.host.zotHome) : projectExtensionsDir(project!);
    await fsp.mkdir(dir, { recursive: true });
    const how = await revealFolder(dir, this.d.trace);
    return { dir, how };
  }

  async revealExtensionFolder(a?: unknown): Promise<{ dir: string; how: string } | undefined> {
    const rt = await this.pickExtension(a, 'Reveal the folder of which zot extension?', () => true);
    if (!rt) return undefined;
    return { dir: rt.dir, how: await revealFolder(rt.dir, this.d.trace) };
  }

  async openManifest(a?: unknown): Promise<string | undefined> {
    const rt = await this.pickExtension(a, 'Open the manifest of which zot extension?', () => true);
    if (!rt) return undefined;
    const file = path.join(rt.dir, 'extension.json');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    return file;
  }

  /** `(path, {overwrite})` installs without asking, except before replacing when overwrite is not given. */
  async installFromFolder(a?: unknown, b?: unknown): Promise<{ installed: boolean; name?: string; dir?: string; replaced?: boolean; reason?: string }> {
    let src = typeof a === 'string' ? a : a instanceof vscode.Uri ? a.fsPath : undefined;
    if (!src) {
      const picked = await vscode.window.showOpenDialog({
        title: 'Install Zot Extension from Folder',
        openLabel: 'Install',
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      });
      if (!picked?.[0]) return { installed: false, reason: 'cancelled' };
      src = picked[0].fsPath;
    }
    const overwrite = typeof b === 'object' && b !== null && typeof (b as { overwrite?: unknown }).overwrite === 'boolean' ? (b as { overwrite: boolean }).overwrite : undefined;
    const check = await checkInstall(src, this.host.zotHome);
    if (!check.ok) {
      this.error(`Cannot install ${src}: ${check.reason}`);
      return { installed: false, reason: check.reason };
    }
    if (check.exists) {
      let replace = overwrite;
      if (replace === undefined) {
        const choice = await vscode.window.showWarningMessage(
          `A zot extension named "${check.folder}" is already installed. Replace it?`,
          { modal: true, detail: `${check.target} will be replaced by a copy of ${src}.` },
          'Replace',
        );
        replace = choice === 'Replace';
      }
      if (!replace) {
        this.d.trace.record('install-refused', { folder: check.folder, reason: 'already installed' });
        return { installed: false, reason: `"${check.folder}" is already installed at ${check.target}` };
      }
    }
    try {
      await copyInto(src, check.target);
    } catch (err) {
      this.error(`Installing ${check.folder} failed: ${(err as Error).message}`);
      return { installed: false, reason: (err as Error).message };
    }
    this.d.logs.hostLog(`installed ${check.name} from ${src} into ${check.target}${check.exists ? ' (replaced)' : ''}`);
    await this.d.manager.reload();
    this.info(`Installed the zot extension "${check.name}".`, 'Show Zot Extensions');
    return { installed: true, name: check.name, dir: check.target, replaced: check.exists };
  }

  async installSamples(): Promise<SamplesResult> {
    const samples = path.join(this.d.context.extensionPath, 'samples');
    const result = await installSamples(samples, this.host.zotHome);
    for (const f of result.failed) this.d.logs.hostLog(`sample ${f.folder} not installed: ${f.reason}`, 'warn');
    if (result.installed.length) {
      this.d.logs.hostLog(`installed samples ${result.installed.join(', ')} into ${globalExtensionsDir(this.host.zotHome)}`);
      await this.d.manager.reload();
      this.info(`Installed sample zot extensions: ${result.installed.join(', ')}.${result.skipped.length ? ` Already installed: ${result.skipped.join(', ')}.` : ''}`, 'Show Zot Extensions');
    } else if (result.failed.length) {
      this.error(`The sample extensions could not be installed: ${result.failed.map((f) => `${f.folder} (${f.reason})`).join('; ')}`);
    } else {
      this.info(`The sample zot extensions are already installed (${result.skipped.join(', ') || 'none found'}).`, 'Show Zot Extensions');
    }
    return result;
  }

  // ---- helpers ----

  private async pickExtension(a: unknown, placeHolder: string, applies: (rt: ExtensionRuntime) => boolean): Promise<ExtensionRuntime | undefined> {
    const named = typeof a === 'string' ? a : isNode(a) ? (a.kind === 'extension' ? a.name : a.extension) : undefined;
    if (named !== undefined) {
      const rt = this.host.get(named);
      if (!rt) this.error(`No zot extension named "${named}".`);
      return rt;
    }
    const candidates = this.host.extensions.filter(applies);
    if (candidates.length === 0) {
      this.info('No zot extension is in a state where that applies.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((rt) => ({ label: rt.name, description: stateLook(rt.state).label, detail: rt.dir, iconPath: stateIcon(rt.state), rt })),
      { placeHolder, matchOnDetail: true },
    );
    return picked?.rt;
  }

  private error(text: string, extension?: string): void {
    this.d.trace.record('message', { level: 'error', text, extension });
    const actions = extension ? ['Show Log'] : [];
    void vscode.window.showErrorMessage(text, ...actions).then((c) => {
      if (c === 'Show Log' && extension) this.d.logs.show(extension);
    });
  }

  private warn(text: string): void {
    this.d.trace.record('message', { level: 'warn', text });
    void vscode.window.showWarningMessage(text);
  }

  private info(text: string, showView?: string): void {
    this.d.trace.record('message', { level: 'info', text });
    const actions = showView ? [showView] : [];
    void vscode.window.showInformationMessage(text, ...actions).then((c) => {
      if (c) void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    });
  }
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && typeof (x as { kind?: unknown }).kind === 'string';
}

/**
 * Shows a folder the way this editor can: in the Explorer when it is part of
 * the workspace, in the OS file manager on a local desktop, else (a remote or
 * web window, where neither exists) a notification offering a new window.
 */
export async function revealFolder(dir: string, trace: UiTrace): Promise<'explorer' | 'os' | 'message'> {
  const uri = vscode.Uri.file(dir);
  if (vscode.workspace.getWorkspaceFolder(uri)) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    trace.record('reveal', { dir, how: 'explorer' });
    return 'explorer';
  }
  if (vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop) {
    await vscode.commands.executeCommand('revealFileInOS', uri);
    trace.record('reveal', { dir, how: 'os' });
    return 'os';
  }
  trace.record('reveal', { dir, how: 'message' });
  void vscode.window.showInformationMessage(`Zot extensions folder: ${dir}`, 'Open in New Window', 'Copy Path').then(async (c) => {
    if (c === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
    else if (c === 'Copy Path') await vscode.env.clipboard.writeText(dir);
  });
  return 'message';
}
