// The tests are checked strictly against the host's declarations and, for the
// modules they bundle, against src (tsconfig.test.json, run by `npm run
// build`): a test that calls a renamed method, passes an option the host does
// not have, reads a field a result does not carry, leaves a parameter untyped,
// uses a value that may be undefined or calls a bundled module wrongly fails
// the build with the place and the reason, before anything runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-typed-tests-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Checks one probe test file with the tests' settings; returns tsc's output and status.
 * @param {string} text
 */
function checkProbe(text) {
  const probe = path.join(scratch, 'probe.test.mjs');
  writeFileSync(probe, text.replaceAll('HELPERS', JSON.stringify(path.join(repoRoot, 'test', 'helpers.mjs'))).replace('export async function probe(t)', "/** @param {import('node:test').TestContext} t */\nexport async function probe(t)"));
  const config = path.join(scratch, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({ extends: path.join(repoRoot, 'tsconfig.test.json'), compilerOptions: { typeRoots: [path.join(repoRoot, 'node_modules', '@types')] }, include: [probe] }));
  const r = spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('a probe that uses the API as it is passes the check', () => {
  const ok = checkProbe(`import { bundleSources, startHost, firstText } from HELPERS;
export async function probe(t) {
  const host = await startHost(t, [], { timing: { helloTimeoutMs: 100 } });
  const { fingerprint } = await bundleSources('/tmp/probe', 'vscode/trust', ['fingerprint']);
  const files = await fingerprint.trackedFiles('.');
  return [firstText(await host.runToolCall('echo', { a: 1 }, { timeoutMs: 10 })), host.get('echo')?.state, files?.size];
}
`);
  assert.equal(ok.status, 0, ok.out);
});

for (const [what, body, error] of /** @type {[string, string, RegExp][]} */ ([
  ['a renamed method', 'await host.runToolCal("echo");', /probe\.test\.mjs\(\d+,\d+\): error TS2551: Property 'runToolCal' does not exist on type .*Did you mean 'runToolCall'\?/],
  ['an option the host does not have', 'await startHost(t, [], { timings: {} });', /probe\.test\.mjs\(\d+,\d+\): error TS2561: Object literal may only specify known properties, but 'timings' does not exist in type .*Did you mean to write 'timing'\?/],
  ['a field a result does not carry', 'return (await host.runToolCall("echo")).output;', /probe\.test\.mjs\(\d+,\d+\): error TS2339: Property 'output' does not exist on type 'ToolOutcome'/],
  ['a wrong argument type', 'await host.stopExtension(42);', /probe\.test\.mjs\(\d+,\d+\): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/],
  ['a value that may be undefined', 'return host.get("echo").state;', /probe\.test\.mjs\(\d+,\d+\): error TS2532: Object is possibly 'undefined'/],
  ['an untyped parameter', 'function twice(n) { return n * 2; } return twice(1);', /probe\.test\.mjs\(\d+,\d+\): error TS7006: Parameter 'n' implicitly has an 'any' type/],
  ['a bundled module called wrongly', 'const { fingerprint } = await bundleSources("/tmp/probe", "vscode/trust", ["fingerprint"]); await fingerprint.trackedFiles(42);', /probe\.test\.mjs\(\d+,\d+\): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/],
  ['a bundled module no test has named', 'const { nowhere } = await bundleSources("/tmp/probe", "vscode/trust", ["nowhere"]); nowhere.run();', /probe\.test\.mjs\(\d+,\d+\): error TS2339: Property 'run' does not exist on type 'never'/],
])) {
  test(`a test with ${what} fails the check, naming the place`, () => {
    const r = checkProbe(`import { bundleSources, startHost } from HELPERS;
export async function probe(t) {
  const host = await startHost(t, []);
  ${body}
}
`);
    assert.equal(r.status, 2, r.out);
    assert.match(r.out, error);
  });
}
