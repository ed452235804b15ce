/**
 * Extension panels as webviews in the editor area: the title, the lines in a
 * monospace block with their spacing and box-drawing characters intact, and
 * the footer, in the theme's colours; a panel with terva's widgets shows them
 * instead of its lines, as elements of the page (media/panel/widgets.js),
 * their actions as buttons. Keys are forwarded while the panel has focus;
 * Esc or closing the tab closes it. A strict content security policy allows
 * only the nonce'd scripts from media/, and extension text is only ever set
 * as text.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Panel } from '../../host/index.js';
import { escapeHtml, fromWebview, panelPageBody, renderMessage } from './pageContract.js';
import { panelSnapshot, type PanelPresenter, type PanelSnapshot } from './panels.js';
import type { UiTrace } from '../ui/trace.js';
import { t } from '../l10n.js';


const VIEW_TYPE = 'zot.panel';

class WebviewPanelView implements vscode.Disposable {
  readonly webview: vscode.WebviewPanel;
  /** The lines the page has, to send only those that changed; undefined: send them all. */
  private shown: readonly string[] | undefined;
  /** The widget tree the page has, as JSON: it goes again only when it changed. */
  private shownWidgets = '';
  private closedByUs = false;
  /** The number of the last key the page sent that went on to the extension (0 after the page loads). */
  private lastKey = 0;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    public panel: Panel,
    mediaRoot: vscode.Uri,
    private readonly onClosedByUser: (view: WebviewPanelView) => void,
    private readonly trace: UiTrace,
  ) {
    this.webview = vscode.window.createWebviewPanel(VIEW_TYPE, titleOf(panel), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      localResourceRoots: [mediaRoot],
    });
    this.webview.iconPath = vscode.Uri.joinPath(mediaRoot, '..', 'zot.svg');
    this.webview.webview.html = html(this.webview.webview, mediaRoot, titleOf(panel));
    this.subs.push(
      this.webview.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      this.webview.onDidDispose(() => {
        for (const s of this.subs) s.dispose();
        if (!this.closedByUs) this.onClosedByUser(this);
      }),
    );
  }

  render(panel: Panel): void {
    this.panel = panel;
    this.webview.title = titleOf(panel);
    const lines = panel.lines;
    const shown = this.shown;
    this.shown = [...lines];
    const widgets = JSON.stringify(panel.widgets);
    const widgetsChanged = !shown || widgets !== this.shownWidgets;
    this.shownWidgets = widgets;
    const message = renderMessage({ title: panel.title, footer: panel.footer, seq: this.lastKey, ...(widgetsChanged && { widgets: panel.widgets }) }, lines, shown);
    // Not delivered (the page is gone or reloading): the next one is whole.
    this.webview.webview.postMessage(message).then((ok) => ok || (this.shown = undefined), () => (this.shown = undefined));
  }

  /** Closed by the extension or the host: nothing goes back to the extension. */
  dispose(): void {
    this.closedByUs = true;
    this.webview.dispose();
  }

  private onMessage(raw: unknown): void {
    const m = fromWebview(raw);
    if (!m) return;
    switch (m.type) {
      case 'ready':
        this.shown = undefined;
        this.lastKey = 0;
        this.render(this.panel);
        return;
      case 'close':
        this.webview.dispose();
        return;
      case 'key':
        this.trace.record('panel-key', () => ({ extension: this.panel.extension.name, panel: this.panel.id, key: m.key, ...(m.text !== undefined && { text: m.text }) }));
        this.lastKey = m.seq;
        this.panel.key(m.key, m.text);
        return;
      case 'action':
        this.trace.record('panel-action', () => ({ extension: this.panel.extension.name, panel: this.panel.id, action: m.id }));
        this.panel.action(m.id);
        return;
      case 'resize':
        this.trace.record('panel-resize', () => ({ extension: this.panel.extension.name, panel: this.panel.id, width: m.width, height: m.height }));
        this.panel.resize(m.width, m.height);
        return;
    }
  }
}

export class WebviewPanels implements PanelPresenter {
  private readonly views = new Map<string, WebviewPanelView>();
  private readonly mediaRoot: vscode.Uri;

  constructor(extensionUri: vscode.Uri, private readonly trace: UiTrace) {
    this.mediaRoot = vscode.Uri.joinPath(extensionUri, 'media', 'panel');
  }

  open(panel: Panel): void {
    const existing = this.views.get(panel.uid);
    if (existing) {
      existing.render(panel);
      existing.webview.reveal(undefined, false);
      return;
    }
    const view = new WebviewPanelView(panel, this.mediaRoot, (v) => this.userClosed(v), this.trace);
    this.views.set(panel.uid, view);
    this.trace.record('panel-open', { extension: panel.extension.name, panel: panel.id, title: panel.title, lines: [...panel.lines], style: 'webview' });
  }

  render(panel: Panel): void {
    const view = this.views.get(panel.uid);
    if (!view) return this.open(panel);
    view.render(panel);
    this.trace.record('panel-render', () => ({ extension: panel.extension.name, panel: panel.id, title: panel.title, lines: [...panel.lines], style: 'webview' }));
  }

  close(panel: Panel): void {
    const view = this.views.get(panel.uid);
    if (!view) return;
    this.views.delete(panel.uid);
    view.dispose();
    this.trace.record('panel-close', { extension: panel.extension.name, panel: panel.id, by: 'extension', style: 'webview' });
  }

  describe(): PanelSnapshot[] {
    return [...this.views.values()].map((v) => panelSnapshot(v.panel, -1, v.webview.visible));
  }

  dispose(): void {
    for (const v of this.views.values()) v.dispose();
    this.views.clear();
  }

  private userClosed(view: WebviewPanelView): void {
    this.views.delete(view.panel.uid);
    view.panel.dismiss();
    this.trace.record('panel-close', { extension: view.panel.extension.name, panel: view.panel.id, by: 'user', style: 'webview' });
  }
}

function titleOf(panel: Panel): string {
  return panel.title || `${panel.extension.name}: ${panel.id}`;
}

function html(webview: vscode.Webview, mediaRoot: vscode.Uri, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const css = webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'panel.css'));
  const js = webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'panel.js'));
  const widgetsJs = webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'widgets.js'));
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; font-src ${webview.cspSource}; img-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${css}">
</head>
<body>
${panelPageBody(t('Panel'))}
<script nonce="${nonce}" src="${widgetsJs}"></script>
<script nonce="${nonce}" src="${js}"></script>
</body>
</html>`;
}

/**
 * Chooses a presentation per panel: `auto` uses a QuickPick for a panel that
 * serves an interactive tool call (the ask-the-user case) and a webview
 * otherwise.
 */
export class PanelRouter implements PanelPresenter {
  private readonly owner = new Map<string, PanelPresenter>();

  constructor(
    private readonly quickPick: PanelPresenter,
    private readonly webview: PanelPresenter,
    private readonly style: () => 'auto' | 'quickPick' | 'webview',
  ) {}

  /** The host opens a panel it does not track yet (a new one, or one the user closed before). */
  open(panel: Panel): void {
    const s = this.style();
    const presenter = s === 'webview' || (s === 'auto' && !panel.forToolCall) ? this.webview : this.quickPick;
    this.owner.set(panel.uid, presenter);
    presenter.open(panel);
  }

  render(panel: Panel): void {
    const presenter = this.owner.get(panel.uid);
    if (presenter) presenter.render(panel);
    else this.open(panel);
  }

  close(panel: Panel): void {
    this.owner.get(panel.uid)?.close(panel);
    this.owner.delete(panel.uid);
  }

  describe(): PanelSnapshot[] {
    return [...this.quickPick.describe(), ...this.webview.describe()];
  }

  dispose(): void {
    this.quickPick.dispose();
    this.webview.dispose();
    this.owner.clear();
  }
}
