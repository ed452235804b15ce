/**
 * The host's HostUI port, implemented with VS Code UI. Each method returns
 * quickly: nothing here waits for a user's click, so an extension's frames
 * keep flowing while a toast or a panel is up.
 */
import * as vscode from 'vscode';
import type { ExtensionRef, HostUI, NotifyLevel, Panel } from '../../host/index.js';
import { DisplayDocuments, fitsNotification } from './display.js';
import type { Notes } from './notes.js';
import type { PanelPresenter } from '../panels/panels.js';
import type { UiTrace } from './trace.js';
import { t } from '../l10n.js';

const CHAT_PARTICIPANT = '@zot';

export interface UiDeps {
  notes: Notes;
  display: DisplayDocuments;
  panels: PanelPresenter;
  trace: UiTrace;
}

export class VsCodeUI implements HostUI {
  readonly interactive = true;
  constructor(private readonly deps: UiDeps) {}

  notify(ext: ExtensionRef, level: NotifyLevel, message: string): void {
    this.deps.notes.notify(ext, level, message);
  }

  clearNotes(ext: ExtensionRef): void {
    this.deps.notes.clear(ext);
  }

  async submit(ext: ExtensionRef, text: string): Promise<void> {
    await openChat(text, this.deps.trace, ext.name);
  }

  async insert(ext: ExtensionRef, text: string): Promise<void> {
    const where = await insertText(text);
    this.deps.trace.record('insert', { extension: ext.name, text, where });
  }

  async display(ext: ExtensionRef, text: string): Promise<void> {
    if (fitsNotification(text)) {
      this.deps.trace.record('display', { extension: ext.name, text, shownAs: 'notification' });
      void vscode.window.showInformationMessage(`${ext.name}: ${text.trim()}`);
      return;
    }
    const uri = this.deps.display.newOutput(ext.name, text);
    this.deps.trace.record('display', { extension: ext.name, text, shownAs: 'document', uri: uri.toString() });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: false });
  }

  openPanel(panel: Panel): void {
    this.deps.panels.open(panel);
  }

  renderPanel(panel: Panel): void {
    this.deps.panels.render(panel);
  }

  closePanel(panel: Panel): void {
    this.deps.panels.close(panel);
  }
}

/** Opens chat with `@zot <text>`, as if the user typed it. */
async function openChat(text: string, trace: UiTrace, extension?: string): Promise<void> {
  const query = `${CHAT_PARTICIPANT} ${text}`;
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { query });
    trace.record('chat-open', { extension, query, ok: true });
  } catch (err) {
    // No chat in this editor: hand the text over instead of dropping it.
    trace.record('chat-open', { extension, query, ok: false, error: (err as Error).message });
    const copy = t('Copy Prompt');
    const said = t('Chat is not available here, so the prompt could not be sent.');
    void vscode.window.showWarningMessage(extension ? `${extension}: ${said}` : said, copy).then(async (choice) => {
      if (choice === copy) await vscode.env.clipboard.writeText(text);
    });
  }
}

/** Inserts at the cursor(s) of the active editor, or into a new untitled document. */
async function insertText(text: string): Promise<'editor' | 'new-document'> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    // A read-only editor (a displayed output) refuses the edit: fall through.
    const ok = await Promise.resolve(editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, text);
    })).catch(() => false);
    if (ok) return 'editor';
  }
  const doc = await vscode.workspace.openTextDocument({ content: text });
  await vscode.window.showTextDocument(doc);
  return 'new-document';
}
