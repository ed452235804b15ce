/**
 * Read-only documents for text an extension displays and for the diagnostics
 * report: a TextDocumentContentProvider on the `zot-display` scheme, so they
 * open as ordinary (read-only) editor tabs and never touch the disk.
 */
import * as vscode from 'vscode';
import { t } from '../l10n.js';

const DISPLAY_SCHEME = 'zot-display';
/** Documents kept for re-opening; older ones read as a note that they expired. */
const KEEP = 50;

export class DisplayDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DISPLAY_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? t('(This output is no longer available.)');
  }

  /** A new document for an extension's output. */
  newOutput(extension: string, text: string): vscode.Uri {
    const n = ++this.counter;
    const uri = vscode.Uri.from({ scheme: DISPLAY_SCHEME, path: `/${extension}/${extension} output ${n}.md` });
    this.set(uri, text);
    return uri;
  }

  /** A document at a fixed name (the diagnostics report), updated in place. */
  named(name: string): vscode.Uri {
    return vscode.Uri.from({ scheme: DISPLAY_SCHEME, path: `/${name}` });
  }

  set(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    const had = this.contents.has(key);
    this.contents.delete(key);
    this.contents.set(key, text);
    while (this.contents.size > KEEP) this.contents.delete(this.contents.keys().next().value!);
    if (had) this.changed.fire(uri);
  }

  has(uri: vscode.Uri): boolean {
    return this.contents.has(uri.toString());
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}

/** Short and single-line text reads well in a notification; anything else gets a document. */
export function fitsNotification(text: string): boolean {
  const t = text.trim();
  return t.length <= 160 && !t.includes('\n');
}
