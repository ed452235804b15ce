/**
 * The lifecycle commands: reload every extension, start, stop and restart one,
 * allow a held one, and forget this workspace's consent answers.
 */
import * as vscode from 'vscode';
import { canStart, canStop, stateOf } from '../../host/index.js';
import type { CommandKit } from './kit.js';
import { t } from '../l10n.js';

export class LifecycleCommands {
  constructor(private readonly k: CommandKit) {}

  async reload(): Promise<{ name: string; state: string }[]> {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: t('Reloading zot extensions') }, () => this.k.d.manager.reload());
    this.k.d.logs.hostLog('reloaded');
    return this.k.host.extensions.map((r) => ({ name: r.name, state: stateOf(r) }));
  }

  async start(a?: unknown): Promise<string | undefined> {
    const rt = await this.k.pickExtension(a, t('Start which zot extension?'), (r) => r.startable && canStart(r.status));
    if (!rt) return undefined;
    if (rt.status.kind === 'held') {
      // Starting a held one is an explicit "allow".
      await this.k.d.gate.allow(rt.name);
    } else {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Starting ${rt.name}` }, () => this.k.d.manager.startExtension(rt.name));
    }
    return stateOf(this.k.host.get(rt.name));
  }

  async stop(a?: unknown): Promise<string | undefined> {
    const rt = await this.k.pickExtension(a, t('Stop which zot extension?'), (r) => canStop(r.status));
    if (!rt) return undefined;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Stopping ${rt.name}` }, () => this.k.d.manager.stopExtension(rt.name));
    return stateOf(this.k.host.get(rt.name));
  }

  async restart(a?: unknown): Promise<string | undefined> {
    const rt = await this.k.pickExtension(a, t('Restart which zot extension?'), (r) => r.startable && r.status.kind !== 'held');
    if (!rt) return undefined;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Restarting ${rt.name}` }, () => this.k.d.manager.restartExtension(rt.name));
    return stateOf(this.k.host.get(rt.name));
  }

  async allow(a?: unknown): Promise<boolean> {
    const rt = await this.k.pickExtension(a, t('Allow which zot extension to run in this workspace?'), (r) => r.status.kind === 'held');
    if (!rt) return false;
    return this.k.d.gate.allow(rt.name);
  }

  async resetPermissions(): Promise<number> {
    const n = await this.k.d.gate.forgetAll();
    void vscode.window.showInformationMessage(n === 0 ? t('No zot extension of this workspace had been allowed or refused.') : n === 1 ? t('Forgot 1 answer about zot extensions of this workspace.') : t('Forgot {0} answers about zot extensions of this workspace.', n));
    await this.k.d.manager.reload();
    return n;
  }
}
