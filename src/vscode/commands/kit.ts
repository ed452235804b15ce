/**
 * What the commands share: their dependencies, the running host, the picker
 * of an extension (by name, tree node or QuickPick) and the messages they
 * show, each recorded in the trace.
 */
import * as vscode from 'vscode';
import { stateOf, type ExtensionView, type HostCalls } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import type { WorkspaceGate } from '../trust/workspaceGate.js';
import type { DisplayDocuments } from '../ui/display.js';
import type { LogChannels } from '../ui/logs.js';
import type { UiTrace } from '../ui/trace.js';
import { stateIcon, stateLook } from '../views/presentation.js';
import { VIEW_ID, type Node } from '../views/tree.js';
import { t } from '../l10n.js';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  manager: HostManager;
  gate: WorkspaceGate;
  logs: LogChannels;
  display: DisplayDocuments;
  trace: UiTrace;
}

export class CommandKit {
  constructor(readonly d: CommandDeps) {}

  /** The current host, to read and to call into; its lifecycle goes through `d.manager`. */
  get host(): HostCalls {
    return this.d.manager.host;
  }

  async pickExtension(a: unknown, placeHolder: string, applies: (rt: ExtensionView) => boolean): Promise<ExtensionView | undefined> {
    // A view item names its extension by folder too: a shadowed namesake is not the active one.
    if (isNode(a) && a.kind !== 'group') {
      const rt = this.host.extensions.find((r) => r.dir === a.dir);
      if (rt) return rt;
    }
    const named = typeof a === 'string' ? a : isNode(a) ? (a.kind === 'group' ? undefined : a.kind === 'extension' ? a.name : a.extension) : undefined;
    if (named !== undefined) {
      const rt = this.host.get(named);
      if (!rt) this.error(t('No zot extension named "{0}".', named));
      return rt;
    }
    const candidates = this.host.extensions.filter(applies);
    if (candidates.length === 0) {
      this.info(t('No zot extension is in a state where that applies.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((rt) => ({ label: rt.name, description: stateLook(stateOf(rt)).label, detail: rt.dir, iconPath: stateIcon(stateOf(rt)), rt })),
      { placeHolder, matchOnDetail: true },
    );
    return picked?.rt;
  }

  error(text: string, extension?: string): void {
    this.d.trace.record('message', { level: 'error', text, extension });
    const showLog = t('Show Log');
    const actions = extension ? [showLog] : [];
    void vscode.window.showErrorMessage(text, ...actions).then((c) => {
      if (c === showLog && extension) this.d.logs.show(extension);
    });
  }

  warn(text: string): void {
    this.d.trace.record('message', { level: 'warn', text });
    void vscode.window.showWarningMessage(text);
  }

  info(text: string, showView?: string): void {
    this.d.trace.record('message', { level: 'info', text });
    const actions = showView ? [showView] : [];
    void vscode.window.showInformationMessage(text, ...actions).then((c) => {
      if (c) void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    });
  }
}

export function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && typeof (x as { kind?: unknown }).kind === 'string';
}
