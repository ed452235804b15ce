/**
 * zot panels inline in the chat, as MCP Apps (the MCP extension
 * `io.modelcontextprotocol/ui`, revision 2026-01-26). To a client that
 * declares it, each interactive tool names a view, `ui://zot/panel/<tool>`
 * (its `_meta.ui.resourceUri`), and the view's page is the panel page of the
 * editor's webview (media/panel: the same lines, cursor, widgets and keys),
 * with a bridge that speaks the Apps protocol to the client instead of
 * VS Code's webview API. Clients of both MCP revisions get it (a 2025
 * session's capabilities, or those each 2026-07-28 request carries), through
 * the call path both share (callPath.ts: runViewed).
 *
 * The client shows the view while the call runs; the view reaches the call
 * through two tools only a view may call (`_meta.ui.visibility: ["app"]`):
 * VIEW_TOOL, which answers with the panel's render once it is newer than
 * the one the view has (a held request, at most VIEW_WAIT_MS), and
 * INPUT_TOOL, which gives the panel the view's keys, actions, size and its
 * close (Esc), as the webview's messages. Their names and parameters are the
 * page contract's (src/protocol/pageContract.ts), and what the view is sent
 * and what its messages do is the room the webview shares
 * (PanelPage, src/protocol/pageContract.ts): a render after the first that the view has
 * carries only the lines that changed. The view knows its call by the tool's
 * name and arguments (all that an Apps client shares with it) and then by the
 * handle the first answer gives.
 *
 * A client may declare the extension and still not show the view (VS Code
 * with `chat.mcp.apps.enabled` off): a panel that no view has asked for
 * within APP_WAIT_MS goes to the other way this server has of showing it (the
 * editor's own panel, or an elicitation form), or is closed where it has
 * none, which cancels the call as Esc would.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult, Resource, Tool } from '@modelcontextprotocol/server';
import { INPUT_TOOL, MAX_MESSAGES, PanelPage, VIEW_TOOL, pageDocument, panelTitle, preview, viewPageConfig, type InputToolParams, type InputToolResult, type Unchecked, type ViewState, type ViewToolParams } from '../../protocol/index.js';
import type { PanelHandle, PanelUI } from '../../host/index.js';

const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
const APP_MIME = 'text/html;profile=mcp-app';
const PANEL_URI = 'ui://zot/panel/';
/** The names the host keeps for the views' tools: an extension's tool of that name is not served to an Apps client. */
export const APP_TOOLS: readonly string[] = [VIEW_TOOL, INPUT_TOOL];
/** How long an open panel waits for its view before it is shown another way. */
const APP_WAIT_MS = 10_000;
/** How long VIEW_TOOL holds a request for a newer render. */
const VIEW_WAIT_MS = 20_000;
/** How long VIEW_TOOL waits for a call it matches to arrive (the client reads the view as it sends the call: they race). */
const ARRIVAL_WAIT_MS = 3_000;
/** MCP's error for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;
/** How long an ended call is still known to its view (to say how it ended, rather than nothing). */
const ENDED_KEPT_MS = 60_000;

/** Whether a client's capabilities say it shows MCP Apps views. */
export function clientShowsApps(capabilities: unknown): boolean {
  const declared = (capabilities as { extensions?: Record<string, { mimeTypes?: unknown } | undefined> } | undefined)?.extensions?.[APPS_EXTENSION];
  return Array.isArray(declared?.mimeTypes) && declared.mimeTypes.includes(APP_MIME);
}

/** An interactive tool's `_meta` for an Apps client: the view it is shown in. */
export function viewMeta(tool: string): { ui: { resourceUri: string } } {
  return { ui: { resourceUri: PANEL_URI + tool } };
}

/** The tool a view's URI names, if it is one of ours. */
function toolOfView(uri: string): string | undefined {
  return uri.startsWith(PANEL_URI) ? uri.slice(PANEL_URI.length) : undefined;
}

/** The views' own tools, as an Apps client lists them (the model never sees them). */
export function appTools(): Tool[] {
  const call = { type: 'string', maxLength: 64, description: 'the handle an earlier answer gave' };
  // The schemas name exactly the contract's parameters (ViewToolParams, InputToolParams): the compiler holds them together.
  const view = {
    tool: { type: 'string', maxLength: 64, description: 'the MCP name of the tool whose call shows this view' },
    arguments: { type: 'object', description: 'the arguments of that call, as the view was given them' },
    call,
    after: { type: 'integer', minimum: 0 },
  } satisfies Record<keyof ViewToolParams, unknown>;
  const input = { call, messages: { type: 'array', maxItems: MAX_MESSAGES, items: { type: 'object' } } } satisfies Record<keyof InputToolParams, unknown>;
  const meta = { ui: { visibility: ['app'] } };
  return [
    {
      name: VIEW_TOOL,
      title: 'zot panel: view',
      description: 'The render of the zot panel a view shows, once it is newer than `after` (for the view; not for the model).',
      inputSchema: { type: 'object', properties: view, required: ['tool'] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: meta,
    },
    {
      name: INPUT_TOOL,
      title: 'zot panel: input',
      description: 'Keys, actions, size and close from the view of a zot panel (for the view; not for the model).',
      inputSchema: { type: 'object', properties: input, required: ['call', 'messages'] },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: meta,
    },
  ];
}

interface Watched {
  readonly handle: string;
  readonly tool: string;
  readonly args: string;
  /** Open panels of the call, the one shown last. */
  panels: PanelHandle[];
  version: number;
  phase: 'open' | 'elsewhere' | 'ended';
  ended?: string;
  /** A view has asked for it: it stays here. */
  attached: boolean;
  /** What the view was sent and the last key it sent (the room the webview shares). */
  readonly page: PanelPage;
  /** The version and panel of the render the view was sent last: a view that asks after it has its lines. */
  sent?: { version: number; uid: string };
  timer?: NodeJS.Timeout;
  readonly wake: Set<() => void>;
}

/** The views of one client's calls (one MCP session: a view's calls come through its call's connection). */
export class AppViews {
  private readonly calls = new Map<string, Watched>();
  private readonly arrivals = new Set<() => void>();

  constructor(
    private readonly log: (line: string) => void = () => undefined,
    private readonly waitMs = APP_WAIT_MS,
    private readonly viewWaitMs = VIEW_WAIT_MS,
  ) {}

  /**
   * The panel UI of one call of `tool` (its MCP name) with `args`, shown in
   * its view; `fallback` shows its panels when no view asks for them in
   * time. `end` when the call has settled, with how.
   */
  watch(tool: string, args: Record<string, unknown>, fallback: PanelUI | undefined): { ui: PanelUI; end(how: string): void } {
    const w: Watched = { handle: randomUUID(), tool, args: argsKey(args), panels: [], version: 1, phase: 'open', attached: false, page: new PanelPage(), wake: new Set() };
    this.calls.set(w.handle, w);
    for (const arrived of [...this.arrivals]) arrived();
    const bump = (): void => {
      w.version++;
      for (const wake of [...w.wake]) wake();
    };
    const elsewhere = (): void => {
      stopWaiting(w);
      if (w.phase !== 'open' || w.attached) return;
      w.phase = 'elsewhere';
      this.log(`MCP: no view of "${preview(tool, 80)}" asked for its panel within ${Math.round(this.waitMs / 1000)} s; ${fallback ? 'it is shown the other way' : 'it is closed (this client has no other way to show it)'}`);
      const open = w.panels;
      w.panels = [];
      bump();
      for (const p of open) (fallback ? void Promise.resolve(fallback.openPanel(p)).catch(() => p.dismiss()) : p.dismiss());
    };
    const ui: PanelUI = {
      interactive: true,
      // Its client's: a panel opened without tool_call_id never binds across clients.
      session: this,
      openPanel: (p) => {
        if (w.phase === 'elsewhere') return fallback ? fallback.openPanel(p) : p.dismiss();
        if (w.phase === 'ended') return;
        w.panels = [...w.panels.filter((q) => q.uid !== p.uid), p];
        bump();
        if (!w.attached && !w.timer) w.timer = setTimeout(elsewhere, this.waitMs);
      },
      renderPanel: (p) => {
        if (w.phase === 'elsewhere') return fallback?.renderPanel(p);
        if (w.panels.some((q) => q.uid === p.uid)) bump();
      },
      closePanel: (p) => {
        if (w.phase === 'elsewhere') return fallback?.closePanel(p);
        const before = w.panels.length;
        w.panels = w.panels.filter((q) => q.uid !== p.uid);
        if (w.panels.length !== before) bump();
      },
    };
    return {
      ui,
      end: (how) => {
        stopWaiting(w);
        w.phase = 'ended';
        w.ended = how;
        w.panels = [];
        bump();
        setTimeout(() => this.calls.delete(w.handle), ENDED_KEPT_MS).unref();
      },
    };
  }

  /** One of the views' own tools (APP_TOOLS), called by `name`. */
  serve(name: string, params: Record<string, unknown>, signal: AbortSignal): CallToolResult | Promise<CallToolResult> {
    return name === INPUT_TOOL ? this.input(params) : this.view(params, signal);
  }

  /** VIEW_TOOL: the view's call's state, once newer than `after`; a held request ends with the client's `signal`. */
  async view(params: Unchecked<ViewToolParams>, signal: AbortSignal): Promise<CallToolResult> {
    const tool = typeof params.tool === 'string' ? params.tool : undefined;
    if (tool === undefined || tool.length > 64) return badRequest('`tool` must be the MCP name of the tool whose call shows the view');
    const handle = typeof params.call === 'string' ? params.call : undefined;
    const args = params.arguments === undefined ? {} : params.arguments;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return badRequest('`arguments` must be an object');
    const after = Number.isSafeInteger(params.after) && (params.after as number) >= 0 ? (params.after as number) : 0;

    let w = this.find(tool, argsKey(args as Record<string, unknown>), handle);
    if (!w) {
      await this.until(signal, ARRIVAL_WAIT_MS, (wake) => this.arrivals.add(wake), (wake) => this.arrivals.delete(wake));
      w = this.find(tool, argsKey(args as Record<string, unknown>), handle);
      if (!w) return stateResult({ phase: 'none', version: 0, message: `no call of "${preview(tool, 80)}" with these arguments is running` });
    }
    w.attached = true;
    stopWaiting(w);
    // A view that has nothing is a page that (re)loaded: its `ready` (the bridge does not send it on).
    if (after === 0) w.page.restart();
    const found = w;
    if (found.version <= after && found.phase !== 'ended') await this.until(signal, this.viewWaitMs, (wake) => found.wake.add(wake), (wake) => found.wake.delete(wake));
    return stateResult(snapshot(found, after));
  }

  /** INPUT_TOOL: the view's messages to its call's panel shown now, each checked as the webview's are. */
  input(params: Unchecked<InputToolParams>): CallToolResult {
    const w = typeof params.call === 'string' ? this.calls.get(params.call) : undefined;
    if (!w) return badRequest('`call` names no call of this session; ask zot_panel_view first');
    if (!Array.isArray(params.messages)) return badRequest('`messages` must be an array');
    if (params.messages.length > MAX_MESSAGES) return badRequest(`at most ${MAX_MESSAGES} messages at a time`);
    let taken = 0;
    for (const raw of params.messages) {
      const panel = w.panels.at(-1);
      if (w.phase !== 'open' || !panel) continue;
      if (w.page.receive(raw, panel, () => panel.dismiss())) taken++;
    }
    const result: InputToolResult = { taken, phase: w.phase };
    return { content: [{ type: 'text', text: `${taken} of ${params.messages.length} taken` }], structuredContent: result };
  }

  /** Every held request answers. */
  dispose(): void {
    for (const wake of [...this.arrivals]) wake();
    for (const w of this.calls.values()) {
      if (w.timer) clearTimeout(w.timer);
      for (const wake of [...w.wake]) wake();
    }
    this.calls.clear();
  }

  /**
   * The call a view shows: the one its handle names; else, of the running
   * calls of that tool with those arguments, the oldest no view has asked
   * for, or the newest (a view shown again after a reload).
   */
  private find(tool: string, args: string, handle: string | undefined): Watched | undefined {
    const named = handle === undefined ? undefined : this.calls.get(handle);
    if (named && named.tool === tool) return named;
    const running = [...this.calls.values()].filter((w) => w.tool === tool && w.args === args && w.phase !== 'ended');
    return running.find((w) => !w.attached) ?? running.at(-1);
  }

  /** Waits for a wake-up, the client's abort, or `ms`. */
  private until(signal: AbortSignal, ms: number, on: (wake: () => void) => void, off: (wake: () => void) => void): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        off(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      on(done);
      if (signal.aborted) done();
    });
  }
}

/** The call no longer waits for a view to ask for its panel. */
function stopWaiting(w: Watched): void {
  if (w.timer) clearTimeout(w.timer);
  w.timer = undefined;
}

/** The call's state for a view that has the render of version `after`: changed lines where it has the one sent last. */
function snapshot(w: Watched, after: number): ViewState {
  const base = { call: w.handle, version: w.version };
  if (w.phase === 'ended') return { ...base, phase: 'ended', message: w.ended ?? 'ended' };
  if (w.phase === 'elsewhere') return { ...base, phase: 'elsewhere', message: 'the panel is shown another way' };
  const p = w.panels.at(-1);
  if (!p) return { ...base, phase: 'waiting' };
  if (w.sent?.version !== after || w.sent.uid !== p.uid) w.page.forget();
  w.sent = { version: w.version, uid: p.uid };
  return { ...base, phase: 'open', render: w.page.render(p, panelTitle(p)) };
}

function stateResult(s: ViewState): CallToolResult {
  return { content: [{ type: 'text', text: s.phase === 'open' ? `panel open (version ${s.version})` : `${s.phase}${s.message ? `: ${s.message}` : ''}` }], structuredContent: s };
}

function badRequest(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Arguments as text to compare: keys in order at every depth. */
function argsKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The views' resource entries, one per interactive tool served. */
export function viewResources(tools: readonly string[]): Resource[] {
  return tools.map((tool) => ({ uri: PANEL_URI + tool, name: `zot-panel-${tool}`, title: `zot panel of ${tool}`, mimeType: APP_MIME }));
}

/** The resource `uri` if it is the view of one of the interactive tools `served`; undefined: no such resource. */
export function readView(uri: string, served: readonly string[]): { contents: { uri: string; mimeType: string; text: string; _meta: { ui: { csp: Record<string, never> } } }[] } | undefined {
  const tool = toolOfView(uri);
  if (tool === undefined || !served.includes(tool)) return undefined;
  const page = viewPage(tool);
  return { contents: [{ uri, mimeType: APP_MIME, text: page.html, _meta: { ui: { csp: page.csp } } }] };
}

/**
 * The view's page for `tool`: the panel page (media/panel) whole in one
 * document, its scripts and style inline and allowed by their hashes alone.
 * `root`: the installed extension's (or zot-host's) folder, above dist/.
 */
function viewPage(tool: string, root = path.join(__dirname, '..')): { html: string; csp: Record<string, never> } {
  const media = (name: string): string => pageFiles(root)[name]!;
  const scripts = [media('app.js'), media('widgets.js'), media('panel.js')];
  const style = `${media('panel.css')}\n${media('app.css')}`;
  const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const html = pageDocument({
    lang: 'en',
    policy: `default-src 'none'; style-src ${hash(style)}; script-src ${scripts.map(hash).join(' ')}; img-src data:`,
    title: tool,
    label: 'Panel',
    style: { text: style },
    scripts: scripts.map((text) => ({ text })),
    // The page's bridge (app.js) learns its call's tool and the views' tools' names from here.
    meta: { 'zot-view': JSON.stringify(viewPageConfig(tool)) },
    inline: true,
  });
  // No domain of any kind: the page loads nothing and connects nowhere.
  return { html, csp: {} };
}

let files: { root: string; text: Record<string, string> } | undefined;
/** The panel page's files, read once. */
function pageFiles(root: string): Record<string, string> {
  if (files?.root !== root) {
    const dir = path.join(root, 'media', 'panel');
    files = { root, text: Object.fromEntries(['app.js', 'widgets.js', 'panel.js', 'panel.css', 'app.css'].map((n) => [n, readFileSync(path.join(dir, n), 'utf8')])) };
  }
  return files.text;
}
