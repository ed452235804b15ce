// Runs inside VS Code's extension host (see ../terva-ui.test.mjs): the fixture
// `ledger` withdraws one of its two tools with terva's set_withdrawn_tools and
// shows it again; read back through the test API, the Zot view's tree items,
// the MCP server of the extension and its definition's version.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, runAll, uiPartEnded, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, snapshot, testApi, treeItem, waitState } = require('../vscode/suite/helpers.cjs');

const NAME = 'ledger';
const REPO = process.env.ZOT_E2E_REPO;

/** Frames the extension read, from its log (the fixture logs each as `RECV <json>`). */
function received(type) {
  const file = path.join(process.env.ZOT_HOME, 'logs', `ext-${NAME}.log`);
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('RECV ')).map((l) => JSON.parse(l.slice(5))).filter((f) => !type || f.type === type);
}

const tool = async (name) => (await snapshot()).tools.find((t) => t.name === name);
const toolItem = async (name) => (await treeItem(NAME))?.children.find((c) => c.label === name);
const definition = async () => (await testApi().mcpDefinitions()).find((d) => d.label === `zot: ${NAME}`);

/** The tool names the extension's MCP server lists now, and what calling `call` there answers. */
async function mcp(call) {
  const { Client } = require(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/client/index.js'));
  const { StreamableHTTPClientTransport } = require(path.join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/client/streamableHttp.js'));
  const def = await definition();
  assert.ok(def, 'the extension has an MCP server definition');
  const client = new Client({ name: 'e2e-terva-ui', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(def.uri), { requestInit: { headers: def.headers } }));
  try {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    const result = call && (await client.callTool({ name: call, arguments: {} }).catch((error) => ({ thrown: String(error.message ?? error) })));
    return { names, result };
  } finally {
    await client.close();
  }
}

let offeredVersion;

// The window is the UI part's first (../terva-ui.test.mjs): it drives the same extension, and ends with every tool offered again.
uiPartEnded('the real UI checks ended', 300_000);

test('the extension activates; both tools are offered everywhere', async () => {
  await activated();
  await waitState(NAME, ['ready', 'auto_ready']);
  for (const name of ['invoice_send', 'ledger_read']) {
    assert.deepEqual(await waitFor(`${name} registered`, () => tool(name)), { name, extension: NAME, interactive: false, active: true, withdrawn: false, offered: true });
    const item = await waitFor(`${name} in the tree`, () => toolItem(name));
    assert.equal(item.iconColor, null);
    assert.equal(item.contextValue, 'zotTool');
  }
  assert.deepEqual((await mcp()).names, ['invoice_send', 'ledger_read']);
  offeredVersion = (await definition()).version;
});

test('set_withdrawn_tools: the tool stays registered, shown withdrawn and dimmed in the Zot view, gone from the MCP list; a call is refused', async () => {
  await exec('zot.runCommand', 'withdraw', '');
  // terva's example also names rates_fetch, which this extension does not own: ignored.
  const withdrawn = await waitFor('invoice_send withdrawn', async () => {
    const t = await tool('invoice_send');
    return t?.withdrawn && t;
  });
  assert.deepEqual(withdrawn, { name: 'invoice_send', extension: NAME, interactive: false, active: true, withdrawn: true, offered: false });
  assert.equal((await tool('ledger_read')).offered, true);
  assert.equal((await snapshot()).tools.some((t) => t.name === 'rates_fetch'), false);

  const item = await waitFor('the tree item marked', async () => {
    const i = await toolItem('invoice_send');
    return i?.contextValue === 'zotToolWithdrawn' && i;
  });
  assert.equal(item.description, '(withdrawn by its extension) sends an invoice to a customer');
  assert.equal(item.iconColor, 'disabledForeground', 'dimmed like an inactive tool');
  assert.equal(item.command, null, 'no click action');
  assert.match(item.tooltip, /Withdrawn by `ledger` for now/);
  const other = await toolItem('ledger_read');
  assert.equal(other.description, 'reads the ledger');
  assert.equal(other.iconColor, null);

  // MCP: not listed, not callable, and a new definition version makes VS Code list the server's tools again.
  const { names, result } = await mcp('invoice_send');
  assert.deepEqual(names, ['ledger_read']);
  assert.ok(result.thrown || result.isError, `the call is refused: ${JSON.stringify(result)}`);
  await waitFor('a new definition version', async () => {
    const v = (await definition())?.version;
    return v && v !== offeredVersion;
  });

  // Run by name (as a script or keybinding could): refused with the reason, never sent.
  const run = await exec('zot.runTool', 'invoice_send', {});
  assert.equal(run.outcome, 'not_run');
  assert.match(run.message, /extension "ledger" has withdrawn the tool "invoice_send" for now/);
  assert.deepEqual(received('tool_call'), [], 'no call reached the extension');
});

test('set_withdrawn_tools with an empty set: the tool is offered again everywhere', async () => {
  await exec('zot.runCommand', 'restore', '');
  await waitFor('invoice_send offered again', async () => (await tool('invoice_send'))?.offered);
  const item = await waitFor('the tree item plain again', async () => {
    const i = await toolItem('invoice_send');
    return i?.contextValue === 'zotTool' && i;
  });
  assert.equal(item.description, 'sends an invoice to a customer');
  assert.equal(item.iconColor, null);
  const { names, result } = await mcp('invoice_send');
  assert.deepEqual(names, ['invoice_send', 'ledger_read']);
  assert.ok(!result.thrown && !result.isError, JSON.stringify(result));
  assert.equal(received('tool_call').filter((f) => f.name === 'invoice_send').length, 1, 'the call reached the extension');
  await waitFor('the first definition version again', async () => (await definition())?.version === offeredVersion);
});

exports.run = runAll;
