// Runs inside VS Code's extension host for the bench (../measure/vscode.mjs):
// activate() and the time to tools as the extension saw them, then the two
// panels the bench types into from the page (a webview, then a QuickPick),
// then the same two made by this suite with no zot host and no zot extension
// behind them: the floors, what VS Code and the browser take for the same key
// and the same re-render with nothing of ours in the way.
// The bench and this suite take turns through files in $ZOT_BENCH_DIR.
const fs = require('node:fs');
const path = require('node:path');
const url = require('node:url');
const vscode = require('vscode');
const { activated, exec, snapshot, states, testApi, trace, waitFor } = require('../../test/e2e/vscode/suite/helpers.cjs');

const dir = process.env.ZOT_BENCH_DIR;
const count = Number(process.env.ZOT_BENCH_EXTENSIONS);
const mark = (name, value = {}) => fs.writeFileSync(path.join(dir, name), JSON.stringify(value));
const marked = (name) => fs.existsSync(path.join(dir, name));

/** Waits for the bench's turn to end (or its abort, which ends the run). */
async function turn(name, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!marked(name)) {
    if (marked('abort')) throw new Error(`the bench stopped: ${fs.readFileSync(path.join(dir, 'abort'), 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for the bench to write ${name}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function openPanel(style, id) {
  await vscode.workspace.getConfiguration('zot').update('panels.style', style, vscode.ConfigurationTarget.Global);
  void exec('zot.runCommand', 'bench-panel', id);
  await waitFor(`the ${style} panel`, () => testApi().panels().some((p) => p.id === id && p.visible), 30_000);
}

const LINES = 40;
/** The bench fixture's lines (bench/fixtures/zot-panel), the cursor marked. */
const fixtureLines = (cursor) => Array.from({ length: LINES }, (_, i) => `${i === cursor ? '›' : ' '} item ${String(i + 1).padStart(2, '0')} · the quick brown fox jumps over the lazy dog`);
const footer = (keys) => `key ${keys} · ↑/↓ move · esc close`;

/**
 * The QuickPick floor: the same 40 items, and every typed character answered
 * as the zot panel answers it (the box emptied, the placeholder counting the
 * key), at once, in the extension host.
 */
function floorQuickPick() {
  const qp = vscode.window.createQuickPick();
  qp.ignoreFocusOut = true;
  qp.keepScrollPosition = true;
  qp.title = 'bench floor';
  qp.items = fixtureLines(0).map((label) => ({ label, alwaysShow: true }));
  let keys = 0;
  qp.placeholder = footer(keys);
  qp.onDidChangeValue((v) => {
    if (v === '') return;
    keys += v.length;
    qp.value = '';
    qp.placeholder = footer(keys);
  });
  qp.show();
  return qp;
}

/**
 * The webview floor: a page that moves its highlight on ArrowDown at once (as
 * the zot panel's page guesses it) and posts the key to the extension host,
 * which answers at once with all 40 lines again (as the fixture renders), the
 * page writing the lines that changed. The round trip of the zot panel
 * without the host, the zot extension and their pipes.
 */
function floorWebview() {
  const panel = vscode.window.createWebviewPanel('zotBench.floor', 'bench floor', vscode.ViewColumn.Active, { enableScripts: true });
  let keys = 0;
  let cursor = 0;
  panel.webview.onDidReceiveMessage((m) => {
    if (m?.key !== 'down') return;
    keys++;
    cursor = (cursor + 1) % LINES;
    void panel.webview.postMessage({ lines: fixtureLines(cursor), cursor, footer: footer(keys) });
  });
  const rows = fixtureLines(0).map((l, i) => `<div class="line${i === 0 ? ' current' : ''}">${l}</div>`).join('');
  panel.webview.html = `<!doctype html><html><head><meta charset="utf-8"><title>bench floor</title>
<style>body{font:13px monospace;color:var(--vscode-foreground)}.line{white-space:pre;padding:1px 4px}.current{background:var(--vscode-list-activeSelectionBackground)}</style></head>
<body><div id="floor"></div><div id="lines" tabindex="0">${rows}</div><div id="footer">${footer(0)}</div><script>
const api = acquireVsCodeApi();
const list = document.getElementById('lines');
const foot = document.getElementById('footer');
let cur = 0;
const mark = (i) => { list.children[cur].className = 'line'; cur = i; list.children[cur].className = 'line current'; };
addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown') return;
  e.preventDefault();
  mark((cur + 1) % ${LINES});
  api.postMessage({ key: 'down' });
});
addEventListener('message', (e) => {
  const m = e.data;
  for (let i = 0; i < m.lines.length; i++) if (list.children[i].textContent !== m.lines[i]) list.children[i].textContent = m.lines[i];
  if (m.cursor !== cur) mark(m.cursor);
  foot.textContent = m.footer;
});
</script></body></html>`;
  return panel;
}

/**
 * Every extension of the zot home started by the host of this window once VS
 * Code is idle (Zot: Reload Extensions), from the first start to the last
 * ready; against the same processes spawned bare from this extension host,
 * from the first spawn to the last `ready` frame. The host's own share of
 * the time to tools, apart from the VS Code startup that the first figure
 * shares the machine with. Four of each, taking turns; medians.
 */
async function restartFigures() {
  const { median, spawnUntilReady } = await import(url.pathToFileURL(path.join(__dirname, '..', 'util.mjs')).href);
  const home = process.env.ZOT_HOME;
  const folders = fs.readdirSync(path.join(home, 'extensions')).map((f) => path.join(home, 'extensions', f));
  // The manifests' own commands, as the host would run them.
  const commands = folders.map((dir) => {
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'extension.json'), 'utf8'));
    return { file: m.exec, args: m.args ?? [], cwd: dir };
  });
  const host = [];
  const bare = [];
  // The extension host's own CPU time (ms) over each sample (the host's: its stop, discovery and start):
  // what this process spent beside the children.
  const hostCpu = [];
  const bareCpu = [];
  const timedCpu = async (fn, into) => {
    const c0 = process.cpuUsage();
    const ms = await fn();
    const c = process.cpuUsage(c0);
    into.push((c.user + c.system) / 1000);
    return ms;
  };
  for (let i = 0; i < 4; i++) {
    // Taking turns which goes first, each from a collected heap: the collector work that the panels
    // before (or the other figure) leave behind in this process is paid before either is timed.
    collect();
    if (i % 2) bare.push(await timedCpu(() => spawnUntilReady(commands), bareCpu));
    // The names before the reload: while it runs, the suite only reads the recorded state changes (no
    // snapshot, which builds the view's items), so that what it polls costs the host's sample little.
    const names = (await snapshot()).extensions.map((e) => e.name);
    if (names.length !== folders.length) throw new Error(`reload: ${names.length} extensions for ${folders.length} folders`);
    collect();
    const before = Date.now();
    host.push(await timedCpu(async () => {
      await exec('zot.reload');
      const all = await waitFor('every extension ready again after the reload', () => startedAndReady(names, before), 60_000);
      return Math.max(...all.map((x) => x.ready)) - Math.min(...all.map((x) => x.start));
    }, hostCpu));
    collect();
    if (i % 2 === 0) bare.push(await timedCpu(() => spawnUntilReady(commands), bareCpu));
  }
  return { extensions: folders.length, host_ms: median(host), bare_ms: median(bare), host_samples_ms: host, bare_samples_ms: bare, host_cpu_ms: hostCpu, bare_cpu_ms: bareCpu };
}

/**
 * For each extension, when it was first started at or after `since` and when
 * it was next ready (the state changes the test API keeps); undefined while
 * one of them is not ready yet.
 */
async function startedAndReady(names, since = 0) {
  const out = [];
  const recent = (await states()).filter((c) => c.time >= since);
  for (const n of names) {
    const changes = recent.filter((c) => c.extension === n);
    const start = changes.find((c) => c.state === 'starting');
    const ready = start && changes.find((c) => c.state === 'ready' && c.time >= start.time);
    if (!ready) return undefined;
    out.push({ start: start.time, ready: ready.time });
  }
  return out;
}

/** A full collection of this extension host's heap (V8's gc(), which it does not expose by default). */
function collect() {
  require('node:v8').setFlagsFromString('--expose-gc');
  require('node:vm').runInNewContext('gc')();
}

exports.run = async () => {
  try {
    await activated();
    const names = Array.from({ length: count }, (_, i) => `echo-${String(i + 1).padStart(2, '0')}`);
    // Every one of them ready, with its tools offered (what the chat participant and the MCP server list).
    const snap = await waitFor(`${count} extensions ready with their tools`, async () => {
      const s = await snapshot();
      const ready = names.every((n) => s.extensions.some((e) => e.name === n && e.state === 'ready'));
      const tools = names.every((n, i) => s.tools.some((t) => t.extension === n && t.name === `e${String(i + 1).padStart(2, '0')}_echo`));
      const panel = s.extensions.find((e) => e.name === 'zot-bench-panel');
      if (panel && !['starting', 'ready'].includes(panel.state)) throw new Error(`the panel fixture is ${panel.state}: ${panel.error}`);
      return ready && tools && panel?.state === 'ready' && s;
    }, 120_000);
    // When each became ready: its tools are registered before its `ready` frame. And when it was started,
    // which splits the time into the wait before the first start, the spread of the starts, and each start to ready.
    const all = await startedAndReady(names);
    if (!all) throw new Error('an extension has no starting or ready state change recorded');
    const since = (t) => t - snap.activatedAt;
    const toReady = all.map((x) => x.ready - x.start).sort((a, b) => a - b);
    const split = {
      first_start_ms: since(Math.min(...all.map((x) => x.start))),
      last_start_ms: since(Math.max(...all.map((x) => x.start))),
      start_to_ready_median_ms: toReady[Math.floor(toReady.length / 2)],
      start_to_ready_max_ms: toReady[toReady.length - 1],
    };
    mark('startup.json', { activate_ms: snap.activateMs, time_to_tools_ms: Math.max(...all.map((x) => x.ready)) - snap.activatedAt, tools: snap.tools.length, split });

    await openPanel('webview', 'webview');
    mark('webview-open');
    await turn('webview-done');
    await openPanel('quickPick', 'quickpick');
    mark('quickpick-open');
    await turn('quickpick-done');
    // When each typed key reached this extension host and when its render was handed to the QuickPick (the UI trace's
    // clock, Date.now()): the time of the host and the zot extension, apart from VS Code's hops on either side.
    const traced = (await trace()).filter((e) => e.panel === 'quickpick' && ((e.kind === 'panel-key' && e.key === 'rune') || e.kind === 'panel-render'));
    mark('quickpick-host.json', { keys: traced.filter((e) => e.kind === 'panel-key').map((e) => e.time), renders: traced.filter((e) => e.kind === 'panel-render').map((e) => e.time) });
    // The floors, with the zot panels closed.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const qp = floorQuickPick();
    mark('floor-quickpick-open');
    await turn('floor-quickpick-done');
    qp.dispose();
    const web = floorWebview();
    mark('floor-webview-open');
    await turn('floor-webview-done');
    web.dispose();
    mark('restart.json', await restartFigures());
  } catch (error) {
    mark('suite-failed', { error: String(error?.stack ?? error) });
    throw error;
  }
};
