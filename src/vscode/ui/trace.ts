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

type TraceData = Omit<TraceEvent, 'kind'>;

export class UiTrace implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TraceEvent>();
  private listeners = 0;

  readonly onDidRecord: vscode.Event<TraceEvent> = (listener, thisArgs, disposables) => {
    this.listeners++;
    let counted = true;
    const sub = this.emitter.event(listener, thisArgs);
    const d = {
      dispose: () => {
        if (counted) this.listeners--;
        counted = false;
        sub.dispose();
      },
    };
    disposables?.push(d);
    return d;
  };

  /**
   * Records an event for whoever listens; with no one listening (the
   * product), nothing is built. `data` as a function is called only then: for
   * the events of every key and render, whose data copies the panel's lines.
   */
  record(kind: string, data: TraceData | (() => TraceData) = {}): void {
    if (!this.listeners) return;
    this.emitter.fire({ kind, time: Date.now(), ...(typeof data === 'function' ? data() : data) });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
