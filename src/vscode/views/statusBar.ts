/**
 * One status bar item that sums the extensions up (`$(plug) Zot 3`,
 * `$(error) Zot 1 failed`, a spinner while loading) and opens the view.
 */
import * as vscode from 'vscode';
import type { HostManager } from '../core/hostManager.js';
import { DisposableStore, isReady, isSettling, stateOf } from '../../host/index.js';
import { stateLook } from './presentation.js';
import { VIEW_ID } from './tree.js';
import { t } from '../l10n.js';

const DEBOUNCE_MS = 100;

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('zot.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subs = new DisposableStore();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly manager: HostManager) {
    this.item.name = t('Zot Extensions');
    this.item.command = { command: `${VIEW_ID}.focus`, title: t('Show Zot Extensions') };
    this.subs.add(manager.onDidChangeState(() => this.updateSoon()));
    this.subs.add(manager.onDidChangeBusy(() => this.updateSoon()));
    this.subs.add(manager.onDidChangeRegistry(() => this.updateSoon()));
    this.update();
  }

  get text(): string {
    return this.item.text;
  }

  /** The command a click runs. */
  get command(): string | undefined {
    const c = this.item.command;
    return typeof c === 'string' ? c : c?.command;
  }

  updateSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, DEBOUNCE_MS);
  }

  update(): void {
    const exts = this.manager.view.extensions;
    if (exts.length === 0 && !this.manager.loading) {
      this.item.hide();
      return;
    }
    const running = exts.filter((r) => isReady(r.status)).length;
    const failed = exts.filter((r) => r.status.kind === 'failed').length;
    const held = exts.filter((r) => r.status.kind === 'held').length;
    const starting = exts.some((r) => isSettling(r.status));
    if (failed) this.item.text = `$(error) ${t('Zot {0} failed', failed)}`;
    else if (starting || (this.manager.loading && running === 0)) this.item.text = `$(loading~spin) Zot ${running}`;
    else this.item.text = `$(plug) Zot ${running}${held ? ` $(shield) ${held}` : ''}`;
    this.item.backgroundColor = failed ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const md = new vscode.MarkdownString(undefined, true);
    const counts = countsText(running, failed, held);
    md.appendMarkdown(`**${t('Zot extensions')}** — ${counts}\n\n`);
    for (const r of exts) md.appendMarkdown(`- $(${stateLook(stateOf(r)).icon.replace('~spin', '')}) ${r.name}: ${stateLook(stateOf(r)).label}\n`);
    md.appendMarkdown(`\n${t('Click to show the Zot Extensions view.')}`);
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: `${t('Zot extensions')}: ${counts}` };
    this.item.show();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subs.dispose();
    this.item.dispose();
  }
}

/** "2 running, 1 failed, 1 held": what is not zero, running always. */
function countsText(running: number, failed: number, held: number): string {
  return [t('{0} running', running), failed && t('{0} failed', failed), held && t('{0} held', held)].filter(Boolean).join(', ');
}
