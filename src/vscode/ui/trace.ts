/**
 * A record of what the VS Code layer showed or did for the user (messages,
 * inserts, displays, panels, chat requests). Nothing listens in the product;
 * the test bundle keeps the events so end-to-end tests can check UI that has no
 * API to read back (a toast, a status bar message).
 */
import * as vscode from 'vscode';

export interface TraceEvent {
  kind: string;
  extension?: string;
  [key: string]: unknown;
}

export class UiTrace implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TraceEvent>();
  readonly onDidRecord = this.emitter.event;

  record(kind: string, data: Omit<TraceEvent, 'kind'> = {}): void {
    this.emitter.fire({ kind, time: Date.now(), ...data });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
