/**
 * Watch and restart in the editor: *Zot: Watch Extension* toggles it for one
 * extension, `zot.watch` turns it on for the folders named in
 * `zot.extensionPaths`. A save restarts the extension through the workspace
 * gate (every launch does), so a project-local one whose fingerprint
 * changed is held and asked about again; a change to its extension.json reloads, since only
 * discovery reads a manifest. A restart asked for this way resets the crash
 * budget (see FolderWatcher and `zot-host watch`).
 */
import * as vscode from 'vscode';
import { DisposableStore, FolderWatcher, reactToChange, stateOf } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import { SECTION } from '../core/settings.js';
import type { LogChannels } from '../ui/logs.js';
import { extensionOf } from './target.js';
import { t } from '../l10n.js';
import { stateLook } from '../views/presentation.js';

export interface WatchDeps { manager: HostManager; logs: LogChannels }

export class ExtensionWatch implements vscode.Disposable {
  /** Toggled on by the command, by extension name (for this window). */
  private readonly toggled = new Set<string>();
  private readonly watcher: FolderWatcher;
  private readonly subs = new DisposableStore();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly d: WatchDeps) {
    this.watcher = new FolderWatcher(
      (name, files) => this.enqueue(() => this.changed(name, files)),
      (name, message) => d.logs.extensionLog(name, message, 'warn'),
    );
    this.subs.add(d.manager.onDidChangeRegistry(() => this.sync()));
    this.subs.add(d.manager.onDidChangeState(() => this.sync()));
    this.subs.add(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.watch`) && this.sync()));
    this.subs.add(vscode.commands.registerCommand('zot.watchExtension', (a?: unknown) => this.toggle(a)));
    this.sync();
  }

  isWatching(name: string): boolean {
    return this.watcher.has(name);
  }

  /** Toggles watching of one extension; resolves to whether it is watched now. */
  async toggle(a?: unknown): Promise<{ name: string; watching: boolean } | undefined> {
    const host = this.d.manager.view;
    const target = extensionOf(a, host);
    let name = target.named === false ? undefined : target.rt?.name ?? target.named;
    if (name === undefined) {
      const picked = await vscode.window.showQuickPick(
        host.extensions.map((rt) => ({ label: rt.name, description: this.isWatching(rt.name) ? t('watched: pick to stop') : stateLook(stateOf(rt)).label, detail: rt.dir })),
        { placeHolder: t('Watch which zot extension (restart it when a file in its folder changes)?') },
      );
      name = picked?.label;
    }
    if (name === undefined) return undefined;
    if (!host.get(name)) {
      void vscode.window.showErrorMessage(t('No zot extension named "{0}".', name));
      return undefined;
    }
    const watching = !this.isWatching(name);
    if (watching) this.toggled.add(name);
    else this.toggled.delete(name);
    // The setting's folders stay watched while it is on: the toggle only adds.
    this.sync();
    const now = this.isWatching(name);
    this.d.logs.extensionLog(name, now ? `watching ${host.get(name)!.dir}: a change restarts it` : 'no longer watched');
    void vscode.window.setStatusBarMessage(now ? t('Zot: watching {0}', name) : t('Zot: stopped watching {0}', name), 4000);
    return { name, watching: now };
  }

  dispose(): void {
    this.watcher.dispose();
    this.subs.dispose();
  }

  private sync(): void {
    const fromSetting = vscode.workspace.getConfiguration(SECTION).get<boolean>('watch') === true;
    const targets = this.d.manager.view.extensions
      .filter((rt) => this.toggled.has(rt.name) || (fromSetting && rt.found.source === 'explicit'))
      .map((rt) => ({ name: rt.name, dir: rt.dir }));
    this.watcher.set(targets);
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(op).catch((e: unknown) => this.d.logs.hostLog(`watch: ${(e as Error).message}`, 'error'));
    return this.queue;
  }

  private async changed(name: string, files: string[]): Promise<void> {
    await reactToChange(name, files, {
      has: (n) => this.d.manager.view.get(n) !== undefined,
      reload: () => this.d.manager.reload(),
      // The launch asks the workspace gate, as every launch does: a changed project extension is held and asked about.
      restart: (n) => this.d.manager.restartExtension(n),
      say: (n, line) => this.d.logs.extensionLog(n, line),
    });
  }
}
