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
import { DisposableStore, type Panel } from '../../host/index.js';
import { PanelPage, pageDocument, panelTitle, type FromWebview } from '../../protocol/index.js';
import { panelSnapshot, type PanelPresenter, type PanelSnapshot } from './panels.js';
import type { UiTrace } from '../ui/trace.js';
import { t } from '../l10n.js';


const VIEW_TYPE = 'zot.panel';

class WebviewPanelView implements vscode.Disposable {
  readonly webview: vscode.WebviewPanel;
  /** What the page was sent and the last key it sent (the room the inline view shares). */
  private readonly page = new PanelPage();
  private closedByUs = false;
  private readonly subs = new DisposableStore();

  constructor(
    public panel: Panel,
    mediaRoot: vscode.Uri,
    private readonly onClosedByUser: (view: WebviewPanelView) => void,
    private readonly trace: UiTrace,
  ) {
    this.webview = vscode.window.createWebviewPanel(VIEW_TYPE, panelTitle(panel), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      localResourceRoots: [mediaRoot],
    });
    this.webview.iconPath = vscode.Uri.joinPath(mediaRoot, '..', 'zot.svg');
    this.webview.webview.html = html(this.webview.webview, mediaRoot, panelTitle(panel));
    this.subs.add(this.webview.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)));
    this.subs.add(this.webview.onDidDispose(() => {
      this.subs.dispose();
      if (!this.closedByUs) this.onClosedByUser(this);
    }));
  }

  render(panel: Panel): void {
    this.panel = panel;
    this.webview.title = panelTitle(panel);
    const message = this.page.render(panel);
    // Not delivered (the page is gone or reloading): the next one is whole.
    this.webview.webview.postMessage(message).then((ok) => ok || this.page.forget(), () => this.page.forget());
  }

  /** Closed by the extension or the host: nothing goes back to the extension. */
  dispose(): void {
    this.closedByUs = true;
    this.webview.dispose();
  }

  private onMessage(raw: unknown): void {
    const m = this.page.receive(raw, this.panel, () => this.webview.dispose());
    if (!m) return;
    this.traced(m);
    // A page that (re)loaded gets the whole panel at once.
    if (m.type === 'ready') this.render(this.panel);
  }

  private traced(m: FromWebview): void {
    const at = { extension: this.panel.extension.name, panel: this.panel.id };
    if (m.type === 'key') this.trace.record('panel-key', () => ({ ...at, key: m.key, ...(m.text !== undefined && { text: m.text }) }));
    else if (m.type === 'action') this.trace.record('panel-action', () => ({ ...at, action: m.id }));
    else if (m.type === 'resize') this.trace.record('panel-resize', () => ({ ...at, width: m.width, height: m.height }));
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

function html(webview: vscode.Webview, mediaRoot: vscode.Uri, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const uri = (name: string): string => webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, name)).toString();
  return pageDocument({
    lang: vscode.env.language,
    policy: `default-src 'none'; style-src ${webview.cspSource}; font-src ${webview.cspSource}; img-src ${webview.cspSource}; script-src 'nonce-${nonce}';`,
    title,
    label: t('Panel'),
    style: { hrefs: [uri('panel.css')] },
    scripts: [{ src: uri('widgets.js'), nonce }, { src: uri('panel.js'), nonce }],
  });
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
