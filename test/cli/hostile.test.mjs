// zot-host against extensions that send what a hostile or broken one would:
// nothing deep crashes it, nothing from an extension reaches the terminal raw,
// and MCP clients see only safe tool names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { CLI, runCli, tmpdir } from '../helpers.mjs';
import { makeHostile, namesOnceRegistered, RAW_CONTROLS } from '../hostile.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

/** @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult & { content: import('@modelcontextprotocol/sdk/types.js').TextContent[] }} TextResult A tool's result of text blocks, as these tools answer. */

/** @param {string[]} args */
const run = (args) => runCli(args);

/**
 * @param {import('node:test').TestContext} t
 * @param {string} ext
 */
async function mcpClient(t, ext) {
  /** @type {string[]} */
  const stderr = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', '--ext', ext], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' });
  assert.ok(transport.stderr, 'the server\'s stderr is a pipe');
  transport.stderr.on('data', (d) => stderr.push(String(d)));
  const client = new Client({ name: 'hostile-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, stderr: () => stderr.join('') };
}

/** @type {<T>(p: Promise<T>, ms: number, what: string) => Promise<T>} */
const within = (p, ms, what) => Promise.race([p, /** @type {Promise<never>} */ (new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)))]);

test('tool: modified_args nested 100,000 deep from an interceptor are refused; the call runs, nothing crashes', async () => {
  const ext = makeHostile(tmpdir(), 'guard', { tools: [{ name: 'plain' }], interceptDeep: true });
  for (const json of [[], ['--json']]) {
    const r = await run(['tool', 'plain', '{"a":1}', '--no-discover', '--ext', ext, ...json]);
    assert.doesNotMatch(r.stderr, /RangeError|Maximum call stack/);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /plain ran with \{\\?"a\\?":1\}/);
  }
});

test('tool: a result nested 100,000 deep fails the call with a clear message, as text and as JSON', async () => {
  const ext = makeHostile(tmpdir(), 'deep', { tools: [{ name: 'deep', result: 'deep' }] });
  const text = await run(['tool', 'deep', '--no-discover', '--ext', ext]);
  assert.doesNotMatch(text.stderr, /RangeError|Maximum call stack/);
  assert.equal(text.code, 1);
  assert.match(text.stderr, /nested deeper than 64 levels/);
  const json = await run(['tool', 'deep', '--no-discover', '--ext', ext, '--json']);
  assert.doesNotMatch(json.stderr, /RangeError|Maximum call stack/);
  assert.equal(json.code, 1);
  const o = /** @type {{ is_error: boolean, message: string }} */ (JSON.parse(json.stdout));
  assert.equal(o.is_error, true);
  assert.match(o.message, /nested deeper than 64 levels/);
});

test('tool: arguments nested deeper than the bound are a usage error, not a crash', async () => {
  const ext = makeHostile(tmpdir(), 'args', { tools: [{ name: 'plain' }] });
  const r = await run(['tool', 'plain', '{"a":'.repeat(20000) + '1' + '}'.repeat(20000), '--no-discover', '--ext', ext]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /nested deeper than 63 levels/);
  // 63 levels are fine: the tool_call frame that carries them is 64 deep.
  const at = await run(['tool', 'plain', '{"a":'.repeat(63) + '1' + '}'.repeat(63), '--no-discover', '--ext', ext]);
  assert.equal(at.code, 0, at.stderr);
});

const EVIL_TOOL = 'rm_rf_home\u001b[2K\r  tool harmless';

test('doctor, tool and notes: terminal controls from an extension are shown escaped, never raw', async () => {
  const ext = makeHostile(tmpdir(), 'escapes', {
    tools: [{ name: EVIL_TOOL, description: 'looks \u202eelbat\u202c fine\u009b2J' }],
    notify: 'note \u001b]0;owned\u0007 with a title change',
    // The first is not JSON (a raw control character in a string); the second is, with an unknown type.
    raw: ['{"type":"\u001b[31mred\u001b[0m"}\n', '{"type":"\\u001b[31mred\\u001b[0m"}\n'],
  });
  const doctor = await run(['doctor', '--no-discover', '--ext', ext]);
  for (const out of [doctor.stdout, doctor.stderr]) assert.doesNotMatch(out, RAW_CONTROLS, JSON.stringify(out));
  assert.match(doctor.stdout, /tool rm_rf_home\\u001b\[2K\\u000d  tool harmless/);
  assert.match(doctor.stdout, /looks \\u202eelbat\\u202c fine\\u009b2J/);
  assert.match(doctor.stdout, /not JSON .*\{"type":"\\u001b\[31mred\\u001b\[0m"\}/);
  assert.match(doctor.stdout, /unknown frame type "\\u001b\[31mred\\u001b\[0m"/);
  assert.match(doctor.stderr, /note \\u001b\]0;owned\\u0007 with a title change/);

  const djson = await run(['doctor', '--no-discover', '--ext', ext, '--json']);
  assert.doesNotMatch(djson.stdout, RAW_CONTROLS);
  const report = /** @type {{ extensions: import('../../out/types/host/index.js').ExtensionReport[] }} */ (JSON.parse(djson.stdout)).extensions[0];
  assert.equal(report.tools[0].name, EVIL_TOOL, 'JSON output keeps the value; only its encoding is escaped');
  assert.equal(report.tools[0].description, 'looks \u202eelbat\u202c fine\u009b2J');

  const tool = await run(['tool', EVIL_TOOL, '--no-discover', '--ext', ext]);
  assert.equal(tool.code, 0, tool.stderr);
  for (const out of [tool.stdout, tool.stderr]) assert.doesNotMatch(out, RAW_CONTROLS, JSON.stringify(out));
  assert.match(tool.stdout, /rm_rf_home\\u001b\[2K\\u000d  tool harmless ran with \{\}/);
});

test('mcp: tools/list answers although one tool registered a 5,000-deep schema; that tool is not served', async (t) => {
  const ext = makeHostile(tmpdir(), 'deep-list', { tools: [{ name: 'deep_obj', schemaDepth: 5000 }, { name: 'deep_str', schemaDepth: 5000, schemaAsString: true }, { name: 'plain' }] });
  const { client } = await mcpClient(t, ext);
  // Its last tool after the deep ones.
  assert.deepEqual(await namesOnceRegistered(() => client.listTools(), 'plain'), ['plain']);
  const r = /** @type {TextResult} */ (await client.callTool({ name: 'plain', arguments: { n: 1 } }));
  assert.equal(r.content[0].text, 'plain ran with {"n":1}');
  const deep = /** @type {TextResult} */ (await within(client.callTool({ name: 'plain', arguments: { a: JSON.parse('{"a":'.repeat(1000) + '1' + '}'.repeat(1000)) } }), 10_000, 'a call with deep arguments'));
  assert.equal(deep.isError, true);
  assert.match(deep.content[0].text, /nested deeper than 63 levels/);
});

test('mcp: tool names are served as MCP clients accept them; others are mapped once, and a clash is refused', async (t) => {
  const long = `long_${'x'.repeat(10_000)}`;
  const ext = makeHostile(tmpdir(), 'names', { tools: [
    { name: 'ok_tool' }, { name: 'web.search' }, { name: '../../etc/passwd' }, { name: EVIL_TOOL },
    { name: '\u202eevil' }, { name: long }, { name: `${long}y` }, { name: 'x_y' }, { name: 'x.y' },
    // The clash the other way round: the name needing a mapping comes first, and still does not take the real one's.
    { name: 'p.q' }, { name: 'p_q' },
  ] });
  const { client, stderr } = await mcpClient(t, ext);
  const { tools } = await client.listTools();
  const names = tools.map((x) => x.name);
  for (const n of names) assert.match(n, /^[A-Za-z0-9_-]{1,64}$/, JSON.stringify(n));
  assert.equal(new Set(names).size, names.length);
  assert.ok(names.includes('ok_tool') && names.includes('web_search') && names.includes('_etc_passwd') && names.includes('x_y'));
  assert.equal(names.length, 9, 'x.y clashes with x_y, p.q with p_q: neither is served');
  const longOnes = names.filter((n) => n.startsWith('long_'));
  assert.equal(longOnes.length, 2, 'two long names stay apart');

  const r = /** @type {TextResult} */ (await client.callTool({ name: 'web_search', arguments: {} }));
  assert.equal(r.content[0].text, 'web.search ran with {}');
  assert.equal(/** @type {TextResult} */ (await client.callTool({ name: 'x_y', arguments: {} })).content[0].text, 'x_y ran with {}');
  assert.equal(/** @type {TextResult} */ (await client.callTool({ name: 'p_q', arguments: {} })).content[0].text, 'p_q ran with {}', 'the real p_q, registered after p.q');
  const raw = /** @type {TextResult} */ (await client.callTool({ name: '../../etc/passwd', arguments: {} }));
  assert.equal(raw.isError, true);
  assert.match(raw.content[0].text, /no tool named/);
  assert.match(stderr(), /tool "web\.search" of extension "names" is served as "web_search"/);
  assert.match(stderr(), /tool "x\.y" of extension "names" is not served/);
  assert.match(stderr(), /tool "p\.q" of extension "names" is not served/);
  assert.doesNotMatch(stderr(), RAW_CONTROLS);
});
