// Runs inside VS Code's extension host for the bench (../measure/vscode.mjs):
// activate() and the time to tools as the extension saw them, then the two
// panels the bench types into from the page (a webview, then a QuickPick).
// The bench and this suite take turns through files in $ZOT_BENCH_DIR.
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { activated, exec, snapshot, states, testApi, waitFor } = require('../../test/e2e/vscode/suite/helpers.cjs');

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
    // When each became ready: its tools are registered before its `ready` frame.
    const readyAt = [];
    for (const n of names) {
      const first = (await states(n)).find((c) => c.state === 'ready');
      if (!first) throw new Error(`${n}: no ready state change recorded`);
      readyAt.push(first.time);
    }
    mark('startup.json', { activate_ms: snap.activateMs, time_to_tools_ms: Math.max(...readyAt) - snap.activatedAt, tools: snap.tools.length });

    await openPanel('webview', 'webview');
    mark('webview-open');
    await turn('webview-done');
    await openPanel('quickPick', 'quickpick');
    mark('quickpick-open');
    await turn('quickpick-done');
  } catch (error) {
    mark('suite-failed', { error: String(error?.stack ?? error) });
    throw error;
  }
};
