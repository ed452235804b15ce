/**
 * Extension panels shown as a QuickPick: the title as its title, each line an
 * item, the footer (the key help) as the placeholder. Moving the active item
 * sends `up`/`down`, Enter sends `enter`, a typed character is sent as `rune`
 * (and not kept in the box), Escape closes the panel. The extension re-renders
 * after each key, as it does in zot's terminal UI.
 *
 * A panel with terva's widgets shows them as text instead of its lines
 * (src/host/ui/widgetText.ts). Their rows are not the extension's cursor:
 * moving among them sends no keys; Enter on an action's row sends that
 * action, on any other row `enter`.
 *
 * A simple, working presenter; a richer one (a webview) can replace it behind
 * the same PanelPresenter interface.
 */
import * as vscode from 'vscode';
import { cursorLine, DisposableStore, widgetLines, type Panel, type WidgetLine } from '../../host/index.js';
import type { UiTrace } from '../ui/trace.js';
import { t } from '../l10n.js';

export interface PanelPresenter extends vscode.Disposable {
  open(panel: Panel): void;
  render(panel: Panel): void;
  close(panel: Panel): void;
  /** What is on screen, for the test API. */
  describe(): PanelSnapshot[];
}

export interface PanelSnapshot {
  key: string;
  extension: string;
  id: string;
  title: string;
  footer: string;
  lines: string[];
  active: number;
  visible: boolean;
}

/** What a presenter shows of one panel; `active` is -1 where there is no active line. */
export function panelSnapshot(panel: Panel, active: number, visible: boolean): PanelSnapshot {
  return { key: panel.uid, extension: panel.extension.name, id: panel.id, title: panel.title, footer: panel.footer, lines: [...panel.lines], active, visible };
}

/** Columns and rows reported to the extension: what a QuickPick shows comfortably. */
const COLUMNS = 80;
const ROWS = 20;
/** How long a programmatic move of the active item may echo back as an event. */
const ECHO_MS = 400;

interface LineItem extends vscode.QuickPickItem {
  index: number;
  /** On a row of the widgets' text: the action it activates, if any. */
  action?: string;
}

class PanelView implements vscode.Disposable {
  readonly qp: vscode.QuickPick<LineItem>;
  active = 0;
  private items: LineItem[] = [];
  /** The rows the items were made of. */
  private shown: readonly WidgetLine[] = [];
  /** The items are the widgets' text, not the extension's lines. */
  private widgetRows = false;
  private expectActive: { index: number; until: number } | undefined;
  private consumed = '';
  /** Hidden by us (closed by the extension or the host, or covered by another panel), not by the user. */
  private hiddenByUs = false;
  private readonly subs = new DisposableStore();
  visible = false;

  constructor(public panel: Panel, private readonly send: PanelSink, private readonly closedByUser: (view: PanelView) => void) {
    this.qp = vscode.window.createQuickPick<LineItem>();
    this.qp.ignoreFocusOut = true;
    this.qp.matchOnDescription = false;
    this.qp.matchOnDetail = false;
    this.qp.keepScrollPosition = true;
    const esc = escButton();
    this.subs.add(this.qp.onDidChangeActive((items) => this.onActive(items)));
    this.subs.add(this.qp.onDidAccept(() => this.onAccept()));
    this.subs.add(this.qp.onDidChangeValue((v) => this.onValue(v)));
    this.subs.add(this.qp.onDidHide(() => this.onHide()));
    this.subs.add(this.qp.onDidTriggerButton((b) => b === esc && this.send(this.panel, 'esc')));
    this.qp.buttons = [esc];
    this.update(panel);
  }

  /**
   * Shows a render. Only what changed goes to VS Code: each property set is a
   * message to the workbench, and new items rebuild its whole list, so a
   * render that changes only the footer (a typed character, a counter) leaves
   * the items and the active one alone.
   */
  update(panel: Panel): void {
    this.panel = panel;
    const title = panel.title || panel.id;
    if (this.qp.title !== title) this.qp.title = title;
    const placeholder = panel.footer || t('Esc to close');
    if (this.qp.placeholder !== placeholder) this.qp.placeholder = placeholder;
    this.widgetRows = panel.widgets.length > 0;
    const rows: readonly WidgetLine[] = this.widgetRows ? widgetLines(panel.widgets) : (panel.lines.length ? panel.lines : ['']).map((text) => ({ text }));
    const same = rows.length === this.shown.length && rows.every((row, i) => row.text === this.shown[i]!.text && row.action === this.shown[i]!.action);
    const cursor = this.widgetRows ? -1 : cursorLine(panel.lines);
    const active = cursor >= 0 ? cursor : Math.min(this.active, rows.length - 1);
    if (same && active === this.active) return;
    if (!same) {
      this.shown = rows;
      this.items = rows.map((row, index) => ({ label: toLabel(row.text), index, alwaysShow: true, ...(row.action !== undefined && { action: row.action }) }));
      this.qp.items = this.items;
    }
    this.active = active;
    this.expectActive = { index: active, until: Date.now() + ECHO_MS };
    this.qp.activeItems = [this.items[active]!];
  }

  show(): void {
    this.hiddenByUs = false;
    this.visible = true;
    this.qp.show();
  }

  /** Hide without telling the extension (another panel covers it, or it was closed elsewhere). */
  hideQuietly(): void {
    this.hiddenByUs = true;
    this.visible = false;
    this.qp.hide();
  }

  dispose(): void {
    this.hiddenByUs = true;
    this.visible = false;
    this.subs.dispose();
    this.qp.dispose();
  }

  private onActive(items: readonly LineItem[]): void {
    const item = items[0];
    if (!item) return;
    const expected = this.expectActive;
    if (expected && Date.now() < expected.until) {
      // Just after an update, VS Code echoes the item we made active (or first
      // resets to the top one). Those are ours; any other move is the user's,
      // who may well press a key the moment the panel shows.
      if (item.index === expected.index) {
        this.expectActive = undefined;
        return;
      }
      if (item.index === 0) return;
    }
    this.expectActive = undefined;
    const delta = item.index - this.active;
    this.active = item.index;
    // The widgets' rows are the page of a terva panel, not its cursor.
    if (this.widgetRows) return;
    const key = delta < 0 ? 'up' : 'down';
    for (let i = 0; i < Math.abs(delta); i++) this.send(this.panel, key);
  }

  private onAccept(): void {
    const action = this.widgetRows ? this.qp.activeItems[0]?.action : undefined;
    if (action !== undefined) this.panel.action(action);
    else this.send(this.panel, 'enter');
  }

  private onValue(value: string): void {
    if (value === '') {
      this.consumed = '';
      return;
    }
    const fresh = value.startsWith(this.consumed) ? value.slice(this.consumed.length) : value;
    this.consumed = value;
    for (const ch of fresh) this.send(this.panel, 'rune', ch);
    // The box is a key reader, not a filter: empty it again.
    this.qp.value = '';
  }

  private onHide(): void {
    this.visible = false;
    if (this.hiddenByUs) return;
    this.closedByUser(this);
  }
}

type PanelSink = (panel: Panel, key: 'up' | 'down' | 'enter' | 'esc' | 'rune', text?: string) => void;

/** Escape itself hides a Quick Pick (and so closes the panel); this button sends the extension an `esc` key instead. */
const escButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('close'), tooltip: t('Send Esc to the extension') });

export class QuickPickPanels implements PanelPresenter {
  private readonly views = new Map<string, PanelView>();
  /** Keys of open panels, the visible one last: a QuickPick shows one at a time. */
  private stack: string[] = [];

  constructor(private readonly trace: UiTrace) {}

  open(panel: Panel): void {
    const existing = this.views.get(panel.uid);
    if (existing) {
      this.render(panel);
      return;
    }
    const sink: PanelSink = (p, key, text) => {
      this.trace.record('panel-key', () => ({ extension: p.extension.name, panel: p.id, key, ...(text !== undefined && { text }) }));
      p.key(key, text);
    };
    const view = new PanelView(panel, sink, (v) => this.userClosed(v));
    this.views.set(panel.uid, view);
    const top = this.top();
    top?.hideQuietly();
    this.stack.push(panel.uid);
    view.show();
    panel.resize(COLUMNS, ROWS);
    this.trace.record('panel-open', { extension: panel.extension.name, panel: panel.id, title: panel.title, lines: [...panel.lines] });
  }

  render(panel: Panel): void {
    const view = this.views.get(panel.uid);
    if (!view) return this.open(panel);
    view.update(panel);
    this.trace.record('panel-render', () => ({ extension: panel.extension.name, panel: panel.id, title: panel.title, lines: [...panel.lines] }));
  }

  /** Closed by the extension or the host: no panel_close goes back. */
  close(panel: Panel): void {
    const view = this.views.get(panel.uid);
    if (!view) return;
    this.forget(view);
    this.trace.record('panel-close', { extension: panel.extension.name, panel: panel.id, by: 'extension' });
  }

  describe(): PanelSnapshot[] {
    return [...this.views.values()].map((v) => panelSnapshot(v.panel, v.active, v.visible));
  }

  dispose(): void {
    for (const v of this.views.values()) v.dispose();
    this.views.clear();
    this.stack = [];
  }

  private userClosed(view: PanelView): void {
    this.forget(view);
    view.panel.dismiss();
    this.trace.record('panel-close', { extension: view.panel.extension.name, panel: view.panel.id, by: 'user' });
  }

  private forget(view: PanelView): void {
    const wasTop = this.top() === view;
    this.views.delete(view.panel.uid);
    this.stack = this.stack.filter((k) => k !== view.panel.uid);
    view.dispose();
    // Bring back the panel it covered.
    if (wasTop) this.top()?.show();
  }

  private top(): PanelView | undefined {
    const key = this.stack[this.stack.length - 1];
    return key === undefined ? undefined : this.views.get(key);
  }
}

/** A line as a QuickPick label: spaces kept, no codicon syntax, never empty. */
function toLabel(line: string): string {
  const text = line.replace(/\$\(/g, '$\u200b(').replace(/ /g, '\u00a0');
  return text === '' ? '\u00a0' : text;
}
