/**
 * Status notes from extensions (`notify`, `clear_notes`).
 *
 * VS Code cannot take back a toast once shown, and zot's notes are status
 * lines that an extension may clear. So: `info` and `success` notes become
 * transient status bar messages, which `clear_notes` removes; only `warn` and
 * `error` become notifications. Every note is also written to the
 * extension's log channel. Notifications of a chatty extension are
 * rate-limited (at most MAX_SHOWN per extension in WINDOW_MS, the same text
 * only once in that window); what is held back is logged, never lost. Status
 * bar notes need no limit: each replaces the last.
 */
import * as vscode from 'vscode';
import type { ExtensionRef, NotifyLevel } from '../../host/index.js';
import type { LogChannels } from './logs.js';
import { MAX_SHOWN, NoteLimiter, WINDOW_MS } from './noteLimiter.js';
import type { UiTrace } from './trace.js';
import { t } from '../l10n.js';

/** How long an info or success note stays in the status bar. */
const STATUS_NOTE_MS = 10_000;

export class Notes implements vscode.Disposable {
  private readonly limiter = new NoteLimiter();
  private readonly statusNotes = new Map<string, Set<vscode.Disposable>>();
  private readonly suppressed = new Map<string, { count: number; timer: NodeJS.Timeout }>();

  constructor(private readonly logs: LogChannels, private readonly trace: UiTrace, private readonly showLog: (name: string) => void) {}

  notify(ext: ExtensionRef, level: NotifyLevel, message: string): void {
    const logLevel = level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info';
    if (level === 'info' || level === 'success') {
      this.logs.extensionLog(ext.name, `[notify ${level}] ${message}`, logLevel);
      const text = `${level === 'success' ? '$(check)' : '$(info)'} ${ext.name}: ${oneLine(message)}`;
      const note = vscode.window.setStatusBarMessage(text, STATUS_NOTE_MS);
      let set = this.statusNotes.get(ext.name);
      if (!set) this.statusNotes.set(ext.name, (set = new Set()));
      set.add(note);
      setTimeout(() => set.delete(note), STATUS_NOTE_MS).unref?.();
      this.trace.record('notify', { extension: ext.name, level, message, shownAs: 'status' });
      return;
    }
    const admission = this.limiter.admit(ext.name, level, message);
    if (!admission.show) {
      this.logs.extensionLog(ext.name, `[notify ${level}, not shown: ${admission.why === 'duplicate' ? 'same note shown moments ago' : `more than ${MAX_SHOWN} notes in ${WINDOW_MS / 1000} s`}] ${message}`, logLevel);
      this.countSuppressed(ext.name);
      this.trace.record('notify-suppressed', { extension: ext.name, level, message, why: admission.why });
      return;
    }
    this.logs.extensionLog(ext.name, `[notify ${level}] ${message}`, logLevel);
    this.trace.record('notify', { extension: ext.name, level, message, shownAs: 'notification' });
    const text = `${ext.name}: ${message}`;
    const showLog = t('Show Log');
    const shown = level === 'error' ? vscode.window.showErrorMessage(text, showLog) : vscode.window.showWarningMessage(text, showLog);
    // Never awaited: a toast waiting for a click must not hold up the extension's next frame.
    void shown.then((choice) => {
      if (choice === showLog) this.showLog(ext.name);
    });
  }

  /** Removes the extension's status notes; toasts already shown cannot be taken back. */
  clear(ext: ExtensionRef): void {
    const set = this.statusNotes.get(ext.name);
    const n = set?.size ?? 0;
    for (const d of set ?? []) d.dispose();
    this.statusNotes.delete(ext.name);
    this.trace.record('clear-notes', { extension: ext.name, cleared: n });
  }

  dispose(): void {
    for (const set of this.statusNotes.values()) for (const d of set) d.dispose();
    this.statusNotes.clear();
    for (const s of this.suppressed.values()) clearTimeout(s.timer);
    this.suppressed.clear();
  }

  /** One summary line per burst, once its window has passed. */
  private countSuppressed(name: string): void {
    const s = this.suppressed.get(name);
    if (s) {
      s.count++;
      return;
    }
    const timer = setTimeout(() => {
      const n = this.suppressed.get(name)?.count ?? 0;
      this.suppressed.delete(name);
      this.logs.extensionLog(name, `${n} notification${n === 1 ? '' : 's'} suppressed (at most ${MAX_SHOWN} per ${WINDOW_MS / 1000} s, duplicates once)`, 'warn');
    }, WINDOW_MS);
    timer.unref?.();
    this.suppressed.set(name, { count: 1, timer });
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
