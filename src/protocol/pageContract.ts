/**
 * The contract between a panel's page (media/panel/panel.js and
 * media/panel/widgets.js, in a webview or inline in the chat as an MCP App)
 * and the extension, in both directions: the
 * messages, what the page keeps across a reload, and which line is the
 * cursor. The page's scripts are checked against these types
 * (tsconfig.media.json: their JSDoc imports them from here).
 *
 * The page has no rule of its own about lines: each render says which line
 * is the cursor and which of the lines it changed a screen reader is to
 * hear, both decided here with the one cursor rule (cursorLine,
 * src/protocol/cursor.ts) that the QuickPick and the MCP server follow too.
 *
 * What the page sends is checked here before anything acts on it: a page is
 * another process, and a message of another shape is dropped.
 *
 * The inline view's side of it is here too: the names and parameters of the
 * views' own tools (the server answers them, the page's bridge
 * media/panel/app.js calls them) and the MCP Apps messages that bridge
 * exchanges with the chat. And the room both hosts of the page share
 * (PanelPage, pageDocument): what acts on the messages and builds the page,
 * written once.
 */
import { CURSOR_MARK, cursorLine } from './cursor.js';
import { PANEL_KEYS, type PanelKey } from './frames.js';
import type { Widget } from './widgets.js';

export { cursorLine };
export type { PanelKey, Widget };

/**
 * Extension → page: a whole render (`lines`) or the lines that changed
 * (`length`, `changed`, `spoken`), with the cursor line (-1: none) and `seq`,
 * the number of the last key the extension had been sent when it rendered
 * (the page drops its guesses of the cursor up to that key). `widgets` comes
 * with a whole render and whenever the tree changed; without it the page
 * keeps the tree it has (an empty one: none, the lines show).
 */
export type ToWebview = RenderHead & (WholeRender | ChangedRender);

export interface RenderHead {
  type: 'render';
  title: string;
  footer: string;
  /** The cursor line of the lines after this render (cursorLine), -1: none. */
  cursor: number;
  seq: number;
  widgets?: readonly Widget[];
}

export interface WholeRender {
  lines: readonly string[];
}

export interface ChangedRender {
  /** How many lines there are after this render. */
  length: number;
  /** [index, text] of each line that differs from the render before. */
  changed: [number, string][];
  /** The indexes of `changed` whose text changed, not only their cursor mark: what a screen reader hears (a moved cursor it hears as the selected line). */
  spoken: number[];
}

/** What a render says besides its lines and cursor. */
export type RenderInputs = Pick<RenderHead, 'title' | 'footer' | 'seq' | 'widgets'>;

/**
 * The render that brings a page showing `shown` to `lines`: the lines that
 * changed, or all of them where what it shows is not known (undefined).
 */
export function renderMessage(head: RenderInputs, lines: readonly string[], shown: readonly string[] | undefined): ToWebview {
  const h: RenderHead = { type: 'render', title: head.title, footer: head.footer, cursor: cursorLine(lines), seq: head.seq, ...(head.widgets && { widgets: head.widgets }) };
  if (!shown) return { ...h, lines };
  const changed = changedLines(shown, lines);
  const spoken = changed.map(([i]) => i).filter((i) => unmarked(shown[i]) !== unmarked(lines[i]));
  return { ...h, length: lines.length, changed, spoken };
}

/** [index, text] of each line of `next` that differs from `prev`. */
function changedLines(prev: readonly string[], next: readonly string[]): [number, string][] {
  const changed: [number, string][] = [];
  for (let i = 0; i < next.length; i++) if (prev[i] !== next[i]) changed.push([i, next[i]!]);
  return changed;
}

/** A line with its cursor mark (if it starts with one) turned into a space: what stays when only the cursor moved. */
function unmarked(line: string | undefined): string {
  return (line ?? '').replace(CURSOR_MARK, (m) => `${m.slice(0, -1)} `);
}

/** What the page keeps across a reload of itself (the webview's state). */
export interface PageState {
  title: string;
  footer: string;
  lines: readonly string[];
  /** The cursor of the extension's last render. */
  cursor: number;
  widgets: readonly Widget[];
}

/** The longest action id the page may send back; the host sends only ids the panel's widgets offer. */
export const MAX_ACTION_ID = 1024;

/** Page → extension. A key's `seq` counts the keys of this page's life (0: the page did not number it). */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'close' }
  | { type: 'key'; key: PanelKey; text?: string; seq: number }
  | { type: 'resize'; width: number; height: number }
  /** A widget action the user activated (a button, a list item). */
  | { type: 'action'; id: string };

/** A message from the page, if it has one of the shapes above; undefined otherwise. */
export function fromWebview(m: unknown): FromWebview | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const o = m as Record<string, unknown>;
  switch (o.type) {
    case 'ready':
    case 'close':
      return { type: o.type };
    case 'key':
      if (typeof o.key !== 'string' || !(PANEL_KEYS as readonly string[]).includes(o.key)) return undefined;
      if (o.text !== undefined && typeof o.text !== 'string') return undefined;
      if (o.seq !== undefined && !(Number.isSafeInteger(o.seq) && (o.seq as number) >= 0)) return undefined;
      {
        const seq = (o.seq as number | undefined) ?? 0;
        return o.key === 'rune' ? { type: 'key', key: 'rune', text: typeof o.text === 'string' ? o.text : '', seq } : { type: 'key', key: o.key as PanelKey, seq };
      }
    case 'resize':
      return typeof o.width === 'number' && typeof o.height === 'number' && Number.isFinite(o.width) && Number.isFinite(o.height)
        ? { type: 'resize', width: o.width, height: o.height }
        : undefined;
    case 'action':
      return typeof o.id === 'string' && o.id !== '' && o.id.length <= MAX_ACTION_ID ? { type: 'action', id: o.id } : undefined;
    default:
      return undefined;
  }
}

/**
 * What the server's view tool answers a panel page shown as an MCP App view
 * inline in the chat (src/mcp/shared/apps.ts), in its `structuredContent`.
 */
export interface ViewState {
  [key: string]: unknown;
  /** The handle of the call this view shows; absent while none matched. */
  call?: string;
  /**
   * `open`: a panel shows (`render`); `waiting`: the call runs and has no
   * panel open; `elsewhere`: its panel is shown another way; `ended`: the
   * call ended (`message` says how); `none`: no call of that tool with those
   * arguments runs.
   */
  phase: 'open' | 'waiting' | 'elsewhere' | 'ended' | 'none';
  version: number;
  render?: ToWebview;
  message?: string;
}

// The room: written once for the webview (src/vscode/panels/webviewPanels.ts) and the inline view (src/mcp/shared/apps.ts).

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

/**
 * One page's side of one panel: what the page was sent and the last key it
 * sent; the next render (changed lines after the first); the page's messages
 * applied to the panel. The hosts differ only in how a message crosses and
 * what Esc closes.
 */
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

/** The view's tool that answers with the panel's render once it is newer than the one the view has. */
export const VIEW_TOOL = 'zot_panel_view';
/** The view's tool that gives the panel the view's messages (FromWebview). */
export const INPUT_TOOL = 'zot_panel_input';
/** Most messages one INPUT_TOOL call carries (a view sends what piled up while the last call was out). */
export const MAX_MESSAGES = 256;

/** VIEW_TOOL's arguments. */
export interface ViewToolParams {
  /** The MCP name of the tool whose call shows this view. */
  tool: string;
  /** The arguments of that call, as the view was given them. */
  arguments?: Record<string, unknown>;
  /** The handle an earlier answer gave. */
  call?: string;
  /** The version the view shows; the answer waits for a newer one. */
  after?: number;
}

/** INPUT_TOOL's arguments. */
export interface InputToolParams {
  call: string;
  messages: FromWebview[];
}

/** INPUT_TOOL's structured answer. */
export interface InputToolResult {
  [key: string]: unknown;
  /** How many of the messages reached the panel. */
  taken: number;
  phase: ViewState['phase'];
}

/** A tool's arguments as they arrive, each unchecked: the server checks them by these names. */
export type Unchecked<P> = { [K in keyof P]?: unknown };

/** Each of the views' own tools: its arguments and its structured answer. */
export interface ViewTools {
  [VIEW_TOOL]: { params: ViewToolParams; result: ViewState };
  [INPUT_TOOL]: { params: InputToolParams; result: InputToolResult };
}

/** What the server tells a view's page of itself (its `zot-view` meta, as JSON): the tool whose call it shows, and the names of the views' tools. */
export interface ViewPageConfig {
  tool: string;
  view: typeof VIEW_TOOL;
  input: typeof INPUT_TOOL;
  maxMessages: number;
}

/** The page's config for `tool`. */
export function viewPageConfig(tool: string): ViewPageConfig {
  return { tool, view: VIEW_TOOL, input: INPUT_TOOL, maxMessages: MAX_MESSAGES };
}

/** A tool call as the view makes it through the chat: one of the views' own tools. */
export type ViewToolCall = { [N in keyof ViewTools]: { name: N; arguments: ViewTools[N]['params'] } }[keyof ViewTools];

/** A tool's result as the view reads it. */
export type AppToolResult = { isError?: boolean; content?: { type?: string; text?: string }[]; structuredContent?: Record<string, unknown> };

/** The chat's theme and language as the view is told them (MCP Apps `hostContext`). */
export type AppHostContext = { locale?: unknown; styles?: { variables?: Record<string, unknown> } };

/** The MCP Apps revision the view speaks. */
export const APPS_PROTOCOL = '2026-01-26';

/** View → chat requests (MCP Apps, revision APPS_PROTOCOL): each method's params and result. */
export interface AppRequests {
  'ui/initialize': {
    params: { appInfo: { name: string; version: string }; appCapabilities: Record<string, never>; protocolVersion: typeof APPS_PROTOCOL };
    result: { hostContext?: AppHostContext } | undefined;
  };
  'tools/call': { params: ViewToolCall; result: AppToolResult | undefined };
}

/** View → chat notifications. */
export interface AppNotifications {
  'ui/notifications/initialized': Record<string, never>;
  'ui/notifications/size-changed': { width: number; height: number };
}

/** Chat → view: the notifications and requests the view answers (any other request is answered "not handled"). */
export interface AppHostMessages {
  'ui/notifications/tool-input': { arguments?: unknown };
  'ui/notifications/tool-result': { isError?: boolean; content?: unknown };
  'ui/notifications/tool-cancelled': Record<string, unknown>;
  'ui/notifications/host-context-changed': AppHostContext;
  'ui/resource-teardown': Record<string, unknown>;
  ping: Record<string, unknown>;
}
