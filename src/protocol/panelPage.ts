/**
 * The panel page's room, shared by both hosts of the page: the editor's
 * webview (src/vscode/panels/webviewPanels.ts) and the MCP Apps view inline
 * in the chat (src/mcp/shared/apps.ts). One PanelPage per page that shows a
 * panel keeps what that page was sent and the last key it sent, turns the
 * panel into the next render (changed lines after the first), and applies
 * the page's messages to the panel; pageDocument builds the page's document
 * for either host. The hosts differ only in how a message crosses and in
 * what Esc closes.
 */
import { fromWebview, renderMessage, type FromWebview, type ToWebview } from './pageContract.js';
import type { PanelKey } from './frames.js';
import type { Widget } from './widgets.js';

/** A panel as its page needs it (the host's PanelHandle is one). */
export interface PagePanel {
  readonly title: string;
  readonly lines: readonly string[];
  readonly footer: string;
  readonly widgets: readonly Widget[];
  readonly extension: { readonly name: string };
  readonly id: string;
  key(key: PanelKey, text?: string): void;
  action(actionId: string): void;
  resize(width: number, height: number): void;
}

/** A panel's title, or where it has none, whose panel it is. */
export function panelTitle(panel: Pick<PagePanel, 'title' | 'extension' | 'id'>): string {
  return panel.title || `${panel.extension.name}: ${panel.id}`;
}

/** One page's side of one panel. */
export class PanelPage {
  /** The lines the page has, to send only those that changed; undefined: send them all. */
  private shown: readonly string[] | undefined;
  /** The widget tree the page has, as JSON: it goes again only when it changed. */
  private shownWidgets = '';
  /** The number of the last key the page sent that went on to the extension (0 after the page loads). */
  private lastKey = 0;

  /** The render that brings the page to `panel` (titled `title`), and the page is taken to have it. */
  render(panel: PagePanel, title = panel.title): ToWebview {
    const shown = this.shown;
    this.shown = [...panel.lines];
    const widgets = JSON.stringify(panel.widgets);
    const widgetsChanged = !shown || widgets !== this.shownWidgets;
    this.shownWidgets = widgets;
    return renderMessage({ title, footer: panel.footer, seq: this.lastKey, ...(widgetsChanged && { widgets: panel.widgets }) }, panel.lines, shown);
  }

  /** What the page has is not known (a render was not delivered): the next render is whole. */
  forget(): void {
    this.shown = undefined;
  }

  /** The page (re)loaded: it has nothing, and numbers its keys from 1 again. */
  restart(): void {
    this.shown = undefined;
    this.lastKey = 0;
  }

  /**
   * A message from the page, checked (one of another shape is dropped:
   * undefined) and applied to `panel`: a key, an action, a size; `ready`
   * starts the page afresh (its next render is whole); `close` (Esc) is the
   * host's to do.
   */
  receive(raw: unknown, panel: PagePanel, close: () => void): FromWebview | undefined {
    const m = fromWebview(raw);
    if (!m) return undefined;
    switch (m.type) {
      case 'ready':
        this.restart();
        break;
      case 'close':
        close();
        break;
      case 'key':
        this.lastKey = m.seq;
        panel.key(m.key, m.text);
        break;
      case 'action':
        panel.action(m.id);
        break;
      case 'resize':
        panel.resize(m.width, m.height);
        break;
    }
    return m;
  }
}

/** A script of the page: loaded from its address under a nonce (the webview), or inline, allowed by its hash (a view, which loads nothing). */
export type PageScript = { src: string; nonce: string } | { text: string };

/** What differs between the page's documents. */
export interface PageParts {
  lang: string;
  /** The Content-Security-Policy. */
  policy: string;
  title: string;
  /** What a screen reader calls the lines until the panel has a title. */
  label: string;
  /** The stylesheets' addresses, or the style inline. */
  style: { hrefs: readonly string[] } | { text: string };
  scripts: readonly PageScript[];
  /** Named values for the page's scripts (`<meta name content>`). */
  meta?: Record<string, string>;
  /** The page is inline in a chat (its body's class). */
  inline?: boolean;
}

/** The page's document; every value in it escaped (a script's text and the style are the page's own files). */
export function pageDocument(p: PageParts): string {
  const style = 'text' in p.style ? [`<style>${p.style.text}</style>`] : p.style.hrefs.map((h) => `<link rel="stylesheet" href="${escapeHtml(h)}">`);
  const scripts = p.scripts.map((s) => ('text' in s ? `<script>${s.text}</script>` : `<script nonce="${escapeHtml(s.nonce)}" src="${escapeHtml(s.src)}"></script>`));
  const meta = Object.entries(p.meta ?? {}).map(([name, content]) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`);
  return `<!DOCTYPE html>
<html lang="${escapeHtml(p.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${p.policy}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${[...meta, `<title>${escapeHtml(p.title)}</title>`, ...style].join('\n')}
</head>
<body${p.inline ? ' class="inline"' : ''}>
${panelPageBody(p.label)}
${scripts.join('\n')}
</body>
</html>`;
}

/**
 * The page's elements, the same in the webview and the inline view (the
 * scripts find them by id): `label` names the lines for a screen reader
 * until the panel has a title.
 */
export function panelPageBody(label: string): string {
  const l = escapeHtml(label);
  return `<div id="title"></div>
<div id="lines" tabindex="0" role="listbox" aria-label="${l}"></div>
<div id="widgets" tabindex="0" role="region" aria-label="${l}" hidden></div>
<div id="footer"></div>
<div id="announce" class="sr-only" role="status" aria-live="polite"></div>
<span id="measure" aria-hidden="true"></span>`;
}

/** Text as HTML text: the only way extension text goes into a page's markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
