// The shipped bundle carries no test instruments: `npm run package` builds
// dist/extension.js from src/extension.ts and refuses to make a VSIX when the
// bundle has a zot._test command or the test API (which can answer the
// consent question and read the MCP bearer header). The test bundle, built
// the same way with --test-instruments, has them: that is what the check finds.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const checkBundle = path.join(repoRoot, 'scripts', 'check-bundle.mjs');
/** @type {string} */
let scratch;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-bundle-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * @param {string} name
 * @param {...string} flags
 */
function build(name, ...flags) {
  const outdir = path.join(scratch, name);
  execFileSync(process.execPath, ['esbuild.mjs', '--production', ...flags, '--outdir', outdir], { cwd: repoRoot, stdio: 'pipe' });
  return path.join(outdir, 'extension.js');
}

/** @param {string} file */
const check = (file) => spawnSync(process.execPath, [checkBundle, file], { encoding: 'utf8' });

test('the production bundle has no zot._test command and no test API', () => {
  const bundle = build('production');
  const text = readFileSync(bundle, 'utf8');
  assert.equal(text.includes('zot._test'), false, 'a zot._test command id is in the shipped bundle');
  const r = check(bundle);
  assert.equal(r.status, 0, r.stderr);
});

test('the test bundle has the test API, and the check names what it found', () => {
  const bundle = build('test', '--test-instruments');
  const r = check(bundle);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /extension\.js: contains "answerConsent" \(the test API answering the consent question\)/);
  assert.match(r.stderr, /contains "mcpDefinitions"/);
  assert.match(r.stderr, /rule: no test instruments in the product/);
});

test('npm run package runs the check before it makes the VSIX', () => {
  /** @type {{ scripts: Record<string, string> }} */
  const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const steps = scripts.package.split('&&').map((s) => s.trim());
  const checkAt = steps.findIndex((s) => s === 'node scripts/check-bundle.mjs dist/extension.js');
  assert.ok(checkAt > steps.findIndex((s) => s.startsWith('node esbuild.mjs --production')), scripts.package);
  assert.ok(checkAt < steps.findIndex((s) => s.startsWith('vsce package')), scripts.package);
  assert.doesNotMatch(scripts.package, /--test-instruments/);
});

test('no telemetry: the shipped bundles load no HTTPS, TLS or UDP module, call no fetch and no telemetry API', () => {
  const dir = path.dirname(build('production'));
  for (const file of ['extension.js', 'cli.js', 'hook.js', 'mcp.js']) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    // Module names in real require calls; ajv's generated code quotes its own runtime paths in strings.
    const modules = new Set([...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1].replace(/^node:/, '')).filter((m) => !m.startsWith('ajv/')));
    // A telemetry endpoint is HTTPS: nothing here can speak it. (node:http serves and calls 127.0.0.1 only:
    // the MCP and hook endpoints, the hook's call to the editor; mcp.js's HTTP adapter also loads node:http2
    // to serve, not to call out.)
    for (const remote of ['https', 'tls', 'dgram', 'dns']) assert.ok(!modules.has(remote), `${file} loads ${remote}`);
    if (file === 'extension.js') for (const m of ['http', 'http2']) assert.ok(!modules.has(m), `the extension's own bundle loads ${m}`);
    // The global fetch, called or taken; a method named fetch (the MCP SDK's HTTP handler serves a request with `.fetch`) is no network call.
    const found = /(?<![.\w$])fetch\(|globalThis\.fetch\b|createTelemetryLogger|telemetryLevel|applicationinsights/.exec(text);
    assert.equal(found && text.slice(Math.max(0, found.index - 80), found.index + 80), null, file);
  }
});
