/** The messages the commands show, each also recorded in the trace. */
import * as vscode from 'vscode';
import type { UiTrace } from '../testing/trace.js';
import type { LogChannels } from '../ui/logs.js';
import { VIEW_ID } from '../views/tree.js';

export class Messages {
  constructor(private readonly trace: UiTrace, private readonly logs: LogChannels) {}

  error(text: string, extension?: string): void {
    this.trace.record('message', { level: 'error', text, extension });
    const actions = extension ? ['Show Log'] : [];
    void vscode.window.showErrorMessage(text, ...actions).then((c) => {
      if (c === 'Show Log' && extension) this.logs.show(extension);
    });
  }

  warn(text: string): void {
    this.trace.record('message', { level: 'warn', text });
    void vscode.window.showWarningMessage(text);
  }

  info(text: string, showView?: string): void {
    this.trace.record('message', { level: 'info', text });
    const actions = showView ? [showView] : [];
    void vscode.window.showInformationMessage(text, ...actions).then((c) => {
      if (c) void vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    });
  }
}
