// The figures only a real VS Code gives (code-server + headless Chromium, the
// e2e harness, the test VSIX): activate(), the time from activate() to every
// extension's tools, and panel latency, a key typed into a panel until the
// extension's re-render of it is painted.
//
// Panel latency is timed inside the page that shows the panel, on its own
// clock: a keydown listener (capture, so before the panel's own) takes the
// event's timeStamp; a MutationObserver sees the render that carries this
// key's count ("key <n>" in the footer: the fixture counts the keys it got);
// then requestAnimationFrame and a MessageChannel message, which runs once the
// frame is painted. For the webview the arrival of the render message is taken
// too (the message event's timeStamp), which splits the figure into the round
// trip outside the webview, the DOM update, and the paint.
//
// Each panel has its floor, timed the same way in the same session: a
// QuickPick and a webview that the bench's own suite makes in the extension
// host (bench/vscode/suite.cjs), answering the same keys with the same lines
// at once, with no zot host, no zot extension and no pipe behind them. What
// the floor takes is what VS Code and the browser take for that key here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BENCH, PANEL_DIR } from '../config.mjs';
import { percentile, scratch } from '../util.mjs';
import { makeHome } from './startup.mjs';

const harness = () => import('../../test/e2e/harness.mjs');
const vsix = () => import('../../test/e2e/vsix.mjs');

/**
 * Runs in the page that shows the panel: times every key until its render is
 * painted, and (with `highlight`, the selector of the highlighted row) until
 * the first frame after the key is painted, with the row highlighted in it:
 * what the user sees move before the extension's render comes.
 */
function instrument({ footerSelector, listSelector, highlight }) {
  // A page instrumented again (the QuickPick floor, in the workbench's own page) keeps nothing of the last time.
  window.__zotBench?.stop();
  const b = { keys: [], msg: NaN, done: [], seen: [] };
  window.__zotBench = b;
  const onKey = (e) => {
    b.keys.push(e.timeStamp);
    if (!highlight) return;
    const k = b.keys.length;
    // The panel's own listener runs after this one (capture) in the same task: the frame shows its effect.
    requestAnimationFrame(() => {
      // `raf`: the frame began; before it, the key waited for the display's next frame.
      const raf = performance.now();
      const list = document.querySelector(listSelector);
      const row = list?.querySelector(highlight);
      const at = row ? Array.prototype.indexOf.call(list.children, row) : -1;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => (b.seen[k - 1] = { at, raf, paint: performance.now() });
      ch.port2.postMessage(0);
    });
  };
  addEventListener('keydown', onKey, true);
  // Listeners of the window run in the order they were added, so this one runs
  // after the panel's: the event's timeStamp is when the message arrived.
  const onMessage = (e) => (b.msg = e.timeStamp);
  addEventListener('message', onMessage, true);
  const footerText = () => {
    const el = document.querySelector(footerSelector);
    return el ? el.textContent || el.getAttribute('placeholder') || '' : '';
  };
  const observer = new MutationObserver(() => {
    const n = b.done.length + 1;
    if (b.keys.length < n || !footerText().startsWith(`key ${n} `)) return;
    const dom = performance.now();
    const key = b.keys[n - 1];
    b.done.push(null); // taken: later mutations of this render do not count
    requestAnimationFrame(() => {
      const msg = b.msg; // read now: the message listener ran after this observer
      const ch = new MessageChannel();
      ch.port1.onmessage = () => (b.done[n - 1] = { key, msg, dom, paint: performance.now() });
      ch.port2.postMessage(0);
    });
  });
  observer.observe(document.querySelector(listSelector)?.parentElement ?? document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['placeholder'] });
  b.stop = () => {
    observer.disconnect();
    removeEventListener('keydown', onKey, true);
    removeEventListener('message', onMessage, true);
  };
}

/**
 * The browser alone: a page of nothing but the panel's 40 lines in the same
 * Chromium, whose own keydown listener moves the highlight and writes the
 * footer at once, in the key's own task. What it takes from the key to the
 * paint is the frame: the display's next frame and drawing it, with nothing
 * of VS Code, of a webview or of an extension host in the way.
 */
const PLAIN_PAGE = `<!doctype html><meta charset="utf-8"><style>
body { font: 13px monospace; margin: 0; } .line { white-space: pre; padding: 0 8px; } .line.current { background: #04395e; color: #fff; }
</style><div id="panel"><div id="lines" tabindex="0"></div><div id="footer">key 0 </div></div><script>
const lines = document.getElementById('lines');
for (let i = 0; i < 40; i++) { const d = document.createElement('div'); d.className = i ? 'line' : 'line current'; d.textContent = (i ? '  ' : '› ') + 'item ' + String(i + 1).padStart(2, '0') + ' '; lines.append(d); }
let cursor = 0, keys = 0;
addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown') return;
  e.preventDefault();
  lines.children[cursor].className = 'line';
  cursor = (cursor + 1) % 40;
  lines.children[cursor].className = 'line current';
  document.getElementById('footer').textContent = 'key ' + ++keys + ' ';
});
</script>`;

/** The same keys into PLAIN_PAGE, in a page of its own beside the workbench's, which is brought back to the front after. */
async function browserAlone(page, warm, n) {
  const plain = await page.context().newPage();
  try {
    await plain.setContent(PLAIN_PAGE);
    await plain.bringToFront();
    await plain.mainFrame().evaluate(instrument, { footerSelector: '#footer', listSelector: '#lines', highlight: '.line.current' });
    await plain.locator('#lines').click();
    return await typeInto(plain, plain.mainFrame(), 'ArrowDown', warm, n);
  } finally {
    await plain.close();
    await page.bringToFront();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** The frame of the webview whose document has the panel's lines (`marker`: and that element too). */
async function panelFrame(page, marker = '#lines') {
  return until('the panel webview', async () => {
    for (const frame of page.frames()) {
      if (await frame.locator('#lines').count().catch(() => 0) && await frame.locator(marker).count().catch(() => 0)) return frame;
    }
    return undefined;
  });
}

/** Presses `key` warm + n times, one at a time, each after the last one's paint. */
async function typeInto(page, frame, key, warm, n) {
  const total = warm + n;
  for (let i = 1; i <= total; i++) {
    await page.keyboard.press(key);
    await frame.waitForFunction((k) => window.__zotBench.done[k - 1], i, { timeout: 10_000, polling: 5 });
  }
  const [done, seen, origin] = await frame.evaluate(() => [window.__zotBench.done, window.__zotBench.seen, performance.timeOrigin]);
  // `at`: the key's wall-clock time (the page's origin plus its own clock), to line it up with the extension host's.
  return done.map((d, i) => ({ ...d, seen: seen[i], at: origin + d.key, paintAt: origin + d.paint, index: i })).slice(warm);
}

/**
 * Whether the frame after the `index`th key (from 0) showed the highlight one
 * line down from where the render before it had the cursor: from line 40 to
 * line 1 where the fixture wraps, which the page guesses once it has seen the
 * fixture's render of a wrap.
 */
const guessedAt = (r, index) => r.seen !== undefined && r.seen.at === (index + 1) % 40;

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1], n: s.length };
};

/** The seen figure's two parts: the key waiting for the next frame to begin, and that frame until it is painted. */
const seenSplit = (rows) => {
  const seen = rows.filter((r) => r.seen);
  return { to_frame: stats(seen.map((r) => r.seen.raf - r.key)), frame: stats(seen.map((r) => r.seen.paint - r.seen.raf)) };
};

/** The VS Code figures in one code-server session; `keys` per panel, after `warm` unrecorded ones. */
export async function vscodeFigures({ count, keys, warm }) {
  const { runExtensionTests, startCodeServer } = await harness();
  const { testBundleVsix } = await vsix();
  const root = scratch('vscode');
  const turns = path.join(root, 'turns');
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(turns);
  fs.mkdirSync(workspace);
  const { home } = makeHome(count);
  fs.cpSync(PANEL_DIR, path.join(home, 'extensions', 'zot-bench-panel'), { recursive: true });
  const vsixPath = await testBundleVsix(root);
  const server = await startCodeServer({
    vsixPaths: [vsixPath],
    env: { ZOT_HOME: home, ZOT_BENCH_DIR: turns, ZOT_BENCH_EXTENSIONS: String(count) },
    settings: { 'workbench.startupEditor': 'none', 'zot.home': home },
  });
  const at = (f) => path.join(turns, f);
  const result = {};
  const drive = async (page) => {
    try {
      await until('the webview panel', () => fs.existsSync(at('webview-open')) || fs.existsSync(at('suite-failed')), 300_000);
      if (fs.existsSync(at('suite-failed'))) return;
      const frame = await panelFrame(page);
      await frame.evaluate(instrument, { footerSelector: '#footer', listSelector: '#lines', highlight: '.line.current' });
      await frame.locator('#lines').click();
      const w = await typeInto(page, frame, 'ArrowDown', warm, keys);
      result.webview = w;
      // What the page shows is what the extension last sent: 40 lines, the cursor where the keys moved it.
      const rows = await frame.locator('#lines .line').evaluateAll((els) => els.map((e) => [e.textContent, e.className]));
      const cursorAt = (warm + keys) % 40;
      const wrong = rows.length !== 40 ? `${rows.length} lines` : rows.findIndex(([t, c], i) => (i === cursorAt) !== (t.startsWith('›') && c === 'line current') || !t.includes(`item ${String(i + 1).padStart(2, '0')} `));
      if (wrong !== -1) throw new Error(`the webview does not show the last render (line ${wrong}): ${JSON.stringify(rows.slice(0, 3))}`);
      fs.writeFileSync(at('webview-done'), '');

      await until('the QuickPick panel', () => fs.existsSync(at('quickpick-open')) || fs.existsSync(at('suite-failed')), 60_000);
      if (fs.existsSync(at('suite-failed'))) return;
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ timeout: 30_000 });
      await until('the QuickPick placeholder', async () => /^key 0 /.test((await input.getAttribute('placeholder')) ?? ''), 30_000);
      await page.mainFrame().evaluate(instrument, { footerSelector: '.quick-input-widget input.input', listSelector: '.quick-input-widget .quick-input-list' });
      result.quickpick = await typeInto(page, page.mainFrame(), 'x', warm, keys);
      fs.writeFileSync(at('quickpick-done'), '');

      // The floors: the same keys into a QuickPick and a webview of the suite's own, nothing of ours behind them.
      await until('the floor QuickPick', () => fs.existsSync(at('floor-quickpick-open')) || fs.existsSync(at('suite-failed')), 60_000);
      if (fs.existsSync(at('suite-failed'))) return;
      await until('the floor QuickPick placeholder', async () => /^key 0 /.test((await input.getAttribute('placeholder')) ?? ''), 30_000);
      await page.mainFrame().evaluate(instrument, { footerSelector: '.quick-input-widget input.input', listSelector: '.quick-input-widget .quick-input-list' });
      result.quickpick_floor = await typeInto(page, page.mainFrame(), 'x', warm, keys);
      fs.writeFileSync(at('floor-quickpick-done'), '');

      await until('the floor webview', () => fs.existsSync(at('floor-webview-open')) || fs.existsSync(at('suite-failed')), 60_000);
      if (fs.existsSync(at('suite-failed'))) return;
      const floorFrame = await panelFrame(page, '#floor');
      await floorFrame.evaluate(instrument, { footerSelector: '#footer', listSelector: '#lines', highlight: '.line.current' });
      await floorFrame.locator('#lines').click();
      result.webview_floor = await typeInto(page, floorFrame, 'ArrowDown', warm, keys);
      // While the suite waits, VS Code is idle: the browser alone, in the same Chromium.
      result.browser = await browserAlone(page, warm, keys);
      fs.writeFileSync(at('floor-webview-done'), '');
    } catch (error) {
      fs.writeFileSync(at('abort'), String(error?.stack ?? error));
      throw error;
    }
  };
  let run;
  try {
    run = await runExtensionTests({ server, folder: workspace, testsEntry: path.join(BENCH, 'vscode', 'suite.cjs'), trusted: true, timeoutMs: 900_000, onPage: drive });
  } finally {
    await server.stop();
  }
  if (fs.existsSync(at('suite-failed'))) throw new Error(`the VS Code side failed: ${JSON.parse(fs.readFileSync(at('suite-failed'), 'utf8')).error}`);
  if (run.exitCode !== 0) throw new Error(`the VS Code run ended with ${run.exitCode}:\n${run.logs.slice(-30).join('\n')}`);
  const startup = JSON.parse(fs.readFileSync(at('startup.json'), 'utf8'));
  const restart = JSON.parse(fs.readFileSync(at('restart.json'), 'utf8'));
  const qpHost = JSON.parse(fs.readFileSync(at('quickpick-host.json'), 'utf8'));
  if (qpHost.keys.length !== warm + keys || qpHost.renders.length !== warm + keys) throw new Error(`the QuickPick's trace has ${qpHost.keys.length} keys and ${qpHost.renders.length} renders for ${warm + keys} keys typed`);
  const w = result.webview;
  const q = result.quickpick;
  const wf = result.webview_floor;
  const qf = result.quickpick_floor;
  return {
    activate_ms: startup.activate_ms,
    time_to_tools_ms: startup.time_to_tools_ms,
    time_to_tools_split: startup.split,
    restart,
    tools: startup.tools,
    panel: stats(w.map((r) => r.paint - r.key)),
    // What the user sees: the first frame after the key where it moved the highlight one line down, else the render.
    panel_seen: stats(w.map((r, i) => (guessedAt(r, warm + i) ? r.seen.paint : r.paint) - r.key)),
    panel_guessed: w.filter((r, i) => guessedAt(r, warm + i)).length,
    panel_split: {
      outside_webview: stats(w.map((r) => r.msg - r.key)),
      dom_update: stats(w.map((r) => r.dom - r.msg)),
      to_paint: stats(w.map((r) => r.paint - r.dom)),
    },
    panel_seen_split: seenSplit(w),
    panel_floor: stats(wf.map((r) => r.paint - r.key)),
    panel_seen_floor: stats(wf.map((r) => (r.seen ? r.seen.paint : r.paint) - r.key)),
    browser_alone: stats(result.browser.map((r) => r.seen.paint - r.key)),
    browser_alone_split: seenSplit(result.browser),
    quickpick: stats(q.map((r) => r.paint - r.key)),
    quickpick_floor: stats(qf.map((r) => r.paint - r.key)),
    quickpick_split: {
      to_dom: stats(q.map((r) => r.dom - r.key)),
      to_paint: stats(q.map((r) => r.paint - r.dom)),
      // On the wall clock (ms): the page to the extension host, the host and the zot extension, back to the paint.
      to_extension_host: stats(q.map((r) => qpHost.keys[r.index] - r.at)),
      in_extension_host: stats(q.map((r) => qpHost.renders[r.index] - qpHost.keys[r.index])),
      back_to_paint: stats(q.map((r) => r.paintAt - qpHost.renders[r.index])),
    },
  };
}
