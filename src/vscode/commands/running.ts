/**
 * Running zot commands: by name and arguments, from a tree node, from the
 * palette (a QuickPick of commands, then an input box for the arguments), and
 * `submit_slash` from an extension. What the command answers is carried out by
 * the host; what went wrong is shown here.
 */
import * as vscode from 'vscode';
import type { CommandOutcome } from '../../host/index.js';
import { outcomeWord } from '../views/presentation.js';
import { VIEW_ID } from '../views/tree.js';
import { isNode, type CommandKit } from './kit.js';
import { t } from '../l10n.js';

export interface RunResult {
  outcome: CommandOutcome['outcome'] | 'cancelled_by_user';
  extension: string | null;
  action?: string;
  error?: string;
  message: string;
}

/** How long a command may run before a cancellable progress notification appears. */
const PROGRESS_AFTER_MS = 1000;

export class RunCommands {
  constructor(private readonly k: CommandKit) {}

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
      const entry = this.k.host.findCommand(name);
      args = await vscode.window.showInputBox({
        title: `/${name}${entry ? ` — ${entry.extension}` : ''}`,
        prompt: entry?.description ? `${entry.description}. ${t('Arguments, or nothing:')}` : t('Arguments, or nothing:'),
        placeHolder: t('arguments (optional)'),
        ignoreFocusOut: true,
      });
      if (args === undefined) return { outcome: 'cancelled_by_user', extension: entry?.extension ?? null, message: 'cancelled' };
    }
    return this.run(name, args);
  }

  /** Runs `/name args`, shows what went wrong, and carries out the action. */
  async run(name: string, args: string): Promise<RunResult> {
    const source = new vscode.CancellationTokenSource();
    const work = this.k.host.invokeCommand(name, args, { token: source.token });
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
    this.k.d.trace.record('command-run', { command: name, args, outcome: outcome.outcome, extension: outcome.extension, progressShown });
    const result: RunResult = { outcome: outcome.outcome, extension: outcome.extension, message: outcome.message };
    if (outcome.outcome !== 'completed') {
      if (outcome.outcome !== 'canceled' && outcome.outcome !== 'abandoned') {
        this.k.error(`/${name}: ${outcome.message || outcomeWord(outcome.outcome)}`, outcome.extension ?? undefined);
      }
      return result;
    }
    const r = outcome.response;
    result.action = r.action;
    if (r.error) result.error = r.error;
    // An error shows as this command's error message, not as the extension's note.
    await this.k.host.applyCommandResponse(outcome.extension, r, { error: (m) => this.k.error(`/${name}: ${m}`, outcome.extension) });
    return result;
  }

  private async pickCommand(): Promise<string | undefined> {
    const commands = this.k.host.commands().filter((c) => c.active);
    if (commands.length === 0) {
      const loading = this.k.d.manager.loading;
      void vscode.window.showInformationMessage(loading ? t('Zot extensions are still starting; try again in a moment.') : t('No running zot extension has registered a command.'), t('Show Zot Extensions')).then((c) => {
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
      title: t('Run Zot Extension Command'),
      placeHolder: t('Pick a command of a zot extension'),
      matchOnDescription: true,
    });
    return picked?.name;
  }
}
