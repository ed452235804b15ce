// The panel page as an MCP App view (inline in the chat): the page's scripts
// (panel.js, widgets.js) run unchanged, and this bridge gives them what a
// webview gives them, over the MCP Apps protocol with the client
// (JSON-RPC by postMessage with the parent window, revision 2026-01-26):
// - the page's messages (keys, actions, size, Esc) go to the server's input
//   tool, in order, what piled up while one call was out going together in
//   the next;
// - renders come from its view tool, which answers when the panel changed
//   (src/mcp/shared/apps.ts), whole the first time and then the lines that
//   changed, and reach the page as a webview's messages would;
// - the view's height follows its content (ui/notifications/size-changed).
// The tools' names and the tool whose call it shows are in the page (its
// `zot-view` meta, from the server); the view knows its call by that tool
// and the arguments the client gives it (ui/notifications/tool-input). Every
// message both ways is typed by the page contract (src/protocol/pageContract.ts).
// @ts-check
(function () {
  /** @typedef {import('../../src/protocol/pageContract.js').FromWebview} FromWebview */
  /** @typedef {import('../../src/protocol/pageContract.js').PageState} PageState */
  /** @typedef {import('../../src/protocol/pageContract.js').ViewState} ViewState */
  /** @typedef {import('../../src/protocol/pageContract.js').ViewTools} ViewTools */
  /** @typedef {import('../../src/protocol/pageContract.js').AppRequests} AppRequests */
  /** @typedef {import('../../src/protocol/pageContract.js').AppNotifications} AppNotifications */
  /** @typedef {import('../../src/protocol/pageContract.js').AppHostMessages} AppHostMessages */
  /** @typedef {import('../../src/protocol/pageContract.js').ToWebview} ToWebview */
  /** @typedef {import('../../src/protocol/pageContract.js').WholeRender & import('../../src/protocol/pageContract.js').RenderHead} WholeRender */
  // The server's own words for this page (apps.ts, viewPageConfig): no name of a tool is written here.
  const { tool, view: VIEW_TOOL, input: INPUT_TOOL, maxMessages: MAX_MESSAGES } = /** @type {import('../../src/protocol/pageContract.js').ViewPageConfig} */ (
    JSON.parse(document.querySelector('meta[name="zot-view"]')?.getAttribute('content') || '{}')
  );
  /** @type {AppRequests['ui/initialize']['params']['protocolVersion']} */
  const PROTOCOL = '2026-01-26';
  /** A held view request lasts at most 20 s on the server; the client is given longer before it gives up. */
  const VIEW_TIMEOUT_MS = 45_000;

  let nextId = 1;
  /** @type {Map<number, { resolve: (v: unknown) => void, reject: (e: unknown) => void, timer: number }>} */
  const pending = new Map();

  /**
   * @template {keyof AppRequests} M
   * @param {M} method
   * @param {AppRequests[M]['params']} params
   * @param {number} [timeoutMs]
   * @returns {Promise<AppRequests[M]['result']>}
   */
  function request(method, params, timeoutMs = 30_000) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve: /** @type {(v: unknown) => void} */ (resolve), reject, timer });
      window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
    });
  }

  /**
   * @template {keyof AppNotifications} M
   * @param {M} method
   * @param {AppNotifications[M]} params
   */
  function notify(method, params) {
    window.parent.postMessage({ jsonrpc: '2.0', method, params }, '*');
  }

  /**
   * One of the views' tools of the server, through the client; its result's structured content.
   * @template {keyof ViewTools} N
   * @param {N} name
   * @param {ViewTools[N]['params']} args
   * @param {number} [timeoutMs]
   * @returns {Promise<ViewTools[N]['result']>}
   */
  async function callTool(name, args, timeoutMs) {
    const call = /** @type {AppRequests['tools/call']['params']} */ ({ name, arguments: args });
    const result = await request('tools/call', call, timeoutMs);
    if (!result || result.isError || !result.structuredContent) throw new Error(result?.content?.[0]?.text || `${name} failed`);
    return /** @type {ViewTools[N]['result']} */ (result.structuredContent);
  }

  /** The arguments of the call this view shows, once the client gave them. */
  let args = /** @type {Record<string, unknown> | undefined} */ (undefined);
  /** The server's handle on that call, from its first answer. */
  let call = '';
  let version = 0;
  let finished = false;
  /** What the page shows, as a whole render: kept on screen, dimmed, when the panel ends. */
  let last = /** @type {WholeRender | undefined} */ (undefined);

  /**
   * A render on top of what the page shows, as a whole one (a render of changed lines says only those).
   * @param {ToWebview} r
   * @returns {WholeRender}
   */
  function onTop(r) {
    const { type, title, footer, cursor, seq } = r;
    const widgets = r.widgets ?? last?.widgets;
    if ('lines' in r) return { type, title, footer, cursor, seq, lines: r.lines, ...(widgets && { widgets }) };
    const lines = (last?.lines ?? []).slice(0, r.length);
    while (lines.length < r.length) lines.push('');
    for (const [i, text] of r.changed) lines[i] = text;
    return { type, title, footer, cursor, seq, lines, ...(widgets && { widgets }) };
  }

  /** @param {unknown} data */
  function toPage(data) {
    window.dispatchEvent(new MessageEvent('message', { data }));
  }

  /**
   * The page says something other than a render would: the panel's last lines stay, its footer says it.
   * @param {string} text
   * @param {boolean} [done]
   */
  function status(text, done = false) {
    // Once the call has ended, nothing moves the view back.
    if (finished && !done) return;
    /** @type {WholeRender} */
    const base = last ?? { type: 'render', title: tool, lines: [], cursor: -1, seq: 0, footer: '' };
    toPage({ ...base, footer: text, cursor: done ? -1 : base.cursor });
    if (done) document.body.classList.add('ended');
  }

  /** @param {string} text */
  function finish(text) {
    if (finished) return;
    finished = true;
    queue.length = 0;
    status(text, true);
  }

  /** Asks for renders until the call ends. */
  async function follow() {
    let failures = 0;
    while (!finished) {
      /** @type {ViewState} */
      let s;
      try {
        s = await callTool(VIEW_TOOL, { tool, arguments: args ?? {}, after: version, ...(call && { call }) }, VIEW_TIMEOUT_MS);
        failures = 0;
      } catch (e) {
        if (finished) return;
        if (++failures >= 3) return finish(`The panel cannot be reached: ${e instanceof Error ? e.message : String(e)}`);
        await new Promise((r) => setTimeout(r, 1000 * failures));
        continue;
      }
      // An answer that comes after the call ended (VS Code's "tool finished" first) is not applied.
      if (finished) return;
      if (s.call) call = s.call;
      version = typeof s.version === 'number' ? s.version : version;
      switch (s.phase) {
        case 'open':
          if (s.render) {
            last = onTop(s.render);
            toPage(s.render);
          }
          flush();
          break;
        case 'waiting':
          status('Waiting for the panel…');
          break;
        case 'elsewhere':
          return finish('The panel is shown in the editor.');
        case 'ended':
          return finish(`Closed (${s.message || 'ended'}).`);
        default:
          return finish('This panel is no longer open.');
      }
    }
  }

  /** The page's messages not yet sent, in order. */
  const queue = /** @type {FromWebview[]} */ ([]);
  let sending = false;
  async function flush() {
    if (sending || !call || finished || !queue.length) return;
    sending = true;
    const batch = queue.splice(0, MAX_MESSAGES);
    try {
      await callTool(INPUT_TOOL, { call, messages: batch });
    } catch {
      // The call ended meanwhile: its view says so.
    }
    sending = false;
    void flush();
  }

  /** @type {PageState | undefined} */
  let state;
  Object.defineProperty(window, 'acquireVsCodeApi', {
    value: () => ({
      /** @param {FromWebview} message */
      postMessage(message) {
        // The page's start is the view's first request (it asks from version 0), which the server takes as its ready.
        if (finished || message.type === 'ready') return;
        queue.push(message);
        void flush();
      },
      getState: () => state,
      /** @param {PageState} s */
      setState(s) {
        state = s;
      },
    }),
  });

  /** @param {unknown} context */
  function applyContext(context) {
    const c = /** @type {{ locale?: unknown, styles?: { variables?: Record<string, unknown> } } | undefined} */ (context);
    if (typeof c?.locale === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(c.locale)) document.documentElement.lang = c.locale;
    // The host's theme, as its standard variables; the page's own style falls back to them (app.css).
    for (const [name, value] of Object.entries(c?.styles?.variables ?? {})) {
      if (/^--[A-Za-z0-9-]{1,80}$/.test(name) && typeof value === 'string' && value.length <= 500) document.documentElement.style.setProperty(name, value);
    }
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = /** @type {{ jsonrpc?: string, id?: number, method?: keyof AppHostMessages, params?: Record<string, unknown>, result?: unknown, error?: { message?: string } } | null} */ (event.data);
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.method === undefined) {
      const p = typeof m.id === 'number' ? pending.get(m.id) : undefined;
      if (!p) return;
      pending.delete(/** @type {number} */ (m.id));
      clearTimeout(p.timer);
      if (m.error) p.reject(new Error(m.error.message || 'error'));
      else p.resolve(m.result);
      return;
    }
    switch (m.method) {
      case 'ui/notifications/tool-input':
        if (args === undefined) {
          const given = m.params?.arguments;
          args = typeof given === 'object' && given !== null && !Array.isArray(given) ? /** @type {Record<string, unknown>} */ (given) : {};
          void follow();
        }
        break;
      case 'ui/notifications/tool-result':
        // The call is over (this view may be a reload of one that ended): nothing more to show or send.
        if (m.params?.isError) {
          const content = /** @type {{ text?: unknown }[] | undefined} */ (Array.isArray(m.params.content) ? m.params.content : undefined);
          const said = typeof content?.[0]?.text === 'string' ? content[0].text.split('\n')[0].slice(0, 120) : '';
          finish(said ? `Ended: ${said}` : 'Ended without an answer.');
        } else finish('Done.');
        break;
      case 'ui/notifications/tool-cancelled':
        finish('Closed (canceled).');
        break;
      case 'ui/notifications/host-context-changed':
        applyContext(m.params);
        break;
      case 'ui/resource-teardown':
      case 'ping':
        if (typeof m.id === 'number') window.parent.postMessage({ jsonrpc: '2.0', id: m.id, result: {} }, '*');
        if (m.method === 'ui/resource-teardown') finished = true;
        break;
      default:
        if (typeof m.id === 'number') window.parent.postMessage({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${String(m.method)} is not handled here` } }, '*');
    }
  });

  // The view is as tall as what it shows, within what the client allows.
  let lastHeight = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    notify('ui/notifications/size-changed', { width: Math.ceil(document.documentElement.getBoundingClientRect().width), height });
  }).observe(document.documentElement);

  request('ui/initialize', { appInfo: { name: 'zot panel', version: '1' }, appCapabilities: {}, protocolVersion: PROTOCOL }).then(
    (result) => {
      applyContext(result?.hostContext);
      notify('ui/notifications/initialized', {});
    },
    () => finish('The chat did not answer this view.'),
  );
})();
