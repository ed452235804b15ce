// docs/PERFORMANCE.md's figures are those of the committed bench run
// (bench/results.json), and that run still describes the bundle that is built
// now. `npm run bench:readme` rewrites the figures; these tests fail, naming
// the figure, when they drift.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { differences, extract, PAGE, RESULTS, render, ROOT, SIZE_MARGIN, sizeDrift } from '../../scripts/readme-perf.mjs';


/** @type {import('../../scripts/readme-perf.mjs').BenchDoc} */
const doc = JSON.parse(readFileSync(RESULTS, 'utf8'));
/** @type {string} */
let scratch;
/** @type {string} */
let production;
before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-readme-perf-'));
  production = path.join(scratch, 'production');
  execFileSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', production], { cwd: ROOT, stdio: 'pipe' });
});
after(() => rmSync(scratch, { recursive: true, force: true }));

test('bench/results.json is a full run: every section measured, reference counts', () => {
  assert.equal(doc.meta.quick, false, 'bench/results.json is a --quick run; its figures are not the reference ones');
  for (const key of /** @type {const} */ (['roundtrip_us', 'throughput_64', 'instructions_per_call', 'cancel_ms', 'startup_ms', 'big_frame_ms', 'panel_latency_ms', 'panel_seen_ms', 'panel_seen_floor_ms', 'panel_seen_browser_ms', 'panel_latency_quickpick_ms', 'time_to_tools_ms'])) {
    for (const [k, v] of Object.entries(doc[key])) assert.notEqual(v, null, `bench/results.json: ${key}.${k} is null (${JSON.stringify(doc.reasons)})`);
  }
  for (const key of /** @type {const} */ (['rss_growth_mb', 'idle_extension_kb', 'bundle_kb', 'vsix_kb', 'activate_ms'])) assert.notEqual(doc[key], null, `bench/results.json: ${key} is null`);
  assert.ok(doc.meta.load_average && Number.isFinite(doc.meta.load_average.max), 'bench/results.json records no load average');
  assert.deepEqual(doc.bars.filter((b) => b.status === 'SKIP').map((b) => b.name), [], 'bars not measured in bench/results.json');
});

test("docs/PERFORMANCE.md's figures are what bench/results.json gives", () => {
  const readme = readFileSync(PAGE, 'utf8');
  const diff = differences(extract(readme), render(doc));
  assert.deepEqual(diff, [], `docs/PERFORMANCE.md differs from bench/results.json (npm run bench:readme rewrites it):\n${diff.join('\n')}`);
});

test('a changed figure is named by its row and column', () => {
  const changed = structuredClone(doc);
  assert.ok(doc.cancel_ms.p99 !== null, 'bench/results.json has cancel_ms.p99');
  changed.cancel_ms.p99 = doc.cancel_ms.p99 + 1;
  changed.bars = doc.bars.map((b) => (b.name === 'activate() ≤ 25 ms' ? { ...b, status: b.status === 'PASS' ? 'FAIL' : 'PASS' } : b));
  const diff = differences(render(doc), render(changed));
  assert.equal(diff.length, 2, diff.join('\n'));
  assert.match(diff[0], /row "cancel → the extension reads `tool_cancel`", column "figure"/);
  assert.match(diff[1], /row "`activate\(\)` inside VS Code", column "4": the page has "(met|missed)"/);
});

test(`the production dist/extension.js built now is within ${SIZE_MARGIN * 100}% of the size in bench/results.json`, () => {
  const kb = statSync(path.join(production, 'extension.js')).size / 1024;
  assert.equal(sizeDrift('dist/extension.js (production)', kb, doc, 'bundle_kb'), null);
});

test('the MCP SDK is in its own bundle, dist/mcp.js, which dist/extension.js only names', () => {
  // A method name of the MCP protocol survives minification: where it is, the SDK is.
  const sdk = 'notifications/initialized';
  const extension = readFileSync(path.join(production, 'extension.js'), 'utf8');
  assert.equal(extension.includes(sdk), false, 'dist/extension.js carries the MCP SDK, so activation loads it');
  assert.equal(readFileSync(path.join(production, 'mcp.js'), 'utf8').includes(sdk), true, 'dist/mcp.js has no MCP SDK: the probe string no longer finds it');
  assert.match(extension, /["'`]mcp\.js["'`]/, 'dist/extension.js does not name dist/mcp.js');
});

test('an agent harness row follows its figures and bar, and is left out when the run has no figures for that harness', () => {
  const base = structuredClone(doc);
  const bar = 'Codex: a zot tool call with the mcp_tool guard ≤ 1.2 × with no hook';
  const guardedBar = 'Codex: a call of its own tool, asked of the guard by the mcp_tool hook, ≤ 1.2 × with no hook';
  const codex = { mcp_tool: 60, none: 50, command: 500, ratio: 1.2, n: 40, n_command: 12, guarded_tool: 'exec_command', guarded_mcp_tool: 90, guarded_none: 60, guarded_command: 600, guarded_ratio: 1.5 };
  base.harness_tool_ms = { claude_code: null, codex };
  base.harness = { codex: { version: '0.169.0', split_ms: { mcp_tool: { to_hook_ms: 5, hook_ms: 2, hook_to_tool_ms: 3, tool_ms: 4, after_tool_ms: 40 }, none: { to_tool_ms: 6, tool_ms: 4, after_tool_ms: 40 } }, guarded_split_ms: { mcp_tool: { to_hook_ms: 7, hook_ms: 1.5, after_hook_ms: 80 } } } };
  base.bars = [...doc.bars.filter((b) => !b.name.startsWith('Codex:')), { name: bar, status: 'PASS' }, { name: guardedBar, status: 'FAIL' }];
  const text = render(base);
  assert.match(text, /\| a zot tool call in Codex 0\.169\.0, the model's call → the model sees its result \(medians of 40 calls, 12 with the command hook\) \| with the `mcp_tool` guard 60 ms, with no hook 50 ms: 1\.20×; with the command hook 500 ms \(10\.00×\) \| ≤ 1\.2× \| met \|/);
  assert.match(text, /\| a call of Codex's own exec_command, which the guard hook asks zot's guards about, the model's call → the model sees its result \(as many calls\) \| with the `mcp_tool` guard 90 ms, with no hook 60 ms: 1\.50×; with the command hook 600 ms \(10\.00×\) \| ≤ 1\.2× \| missed \|/);
  assert.match(text, /- Codex, a zot tool: 5 ms from the model's answer to the hook's call reaching zot's server, 2 ms in the server/);
  assert.match(text, /- Codex, its exec_command: 7 ms from the model's answer to the hook's call reaching zot's server, 1\.5 ms in the server, 80 ms from its answer/);
  // Where the matcher leaves zot's tools out, their split says so.
  const unhooked = { ...structuredClone(base), harness: { codex: { version: '0.169.0', split_ms: { mcp_tool: { to_tool_ms: 6, tool_ms: 4, after_tool_ms: 40 }, none: { to_tool_ms: 6, tool_ms: 4, after_tool_ms: 40 } } } } };
  assert.match(render(unhooked), /- Codex, a zot tool: no hook \(its matcher leaves the plugin's own tools to their server\), 6 ms from the model's answer to the tool's call/);
  assert.doesNotMatch(text, /in Claude Code/, 'no row for a harness the run did not measure');
  const slower = structuredClone(base);
  slower.harness_tool_ms = { claude_code: null, codex: { ...codex, mcp_tool: 61 } };
  slower.bars = base.bars.map((b) => (b.name === bar ? { ...b, status: 'FAIL' } : b));
  const diff = differences(render(base), render(slower));
  assert.equal(diff.length, 2, diff.join('\n'));
  assert.match(diff[0], /row "a zot tool call in Codex 0\.169\.0, .*", column "figure": the page has "with the `mcp_tool` guard 60 ms, with no hook 50 ms: 1\.20×/);
  assert.match(diff[1], /column "4": the page has "met", the run gives "missed"/);
});
