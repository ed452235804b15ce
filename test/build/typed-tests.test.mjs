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
 * A probe test file: the helpers' import, then `body` in a typed test function.
 * @param {string} imports
 * @param {string} body
 */
function probeText(imports, body) {
  return `import { ${imports} } from ${JSON.stringify(path.join(repoRoot, 'test', 'helpers.mjs'))};
/** @param {import('node:test').TestContext} t */
export async function probe(t) {
${body}
}
`;
}

const GOOD = probeText('bundleSources, startHost, firstText', `  const host = await startHost(t, [], { timing: { helloTimeoutMs: 100 } });
  const { fingerprint } = await bundleSources('/tmp/probe', 'vscode/trust', ['fingerprint']);
  const files = await fingerprint.trackedFiles('.');
  return [firstText(await host.runToolCall('echo', { a: 1 }, { timeoutMs: 10 })), host.get('echo')?.status.kind, files?.size];`);

/** What a wrong test does, and the error that must name its place. */
const BAD = /** @type {[string, string, RegExp][]} */ ([
  ['a renamed method', 'await host.runToolCal("echo");', /error TS2551: Property 'runToolCal' does not exist on type .*Did you mean 'runToolCall'\?/],
  ['an option the host does not have', 'await startHost(t, [], { timings: {} });', /error TS2561: Object literal may only specify known properties, but 'timings' does not exist in type .*Did you mean to write 'timing'\?/],
  ['a field a result does not carry', 'return (await host.runToolCall("echo")).output;', /error TS2339: Property 'output' does not exist on type 'ToolOutcome'/],
  ['a wrong argument type', 'await host.stopExtension(42);', /error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/],
  ['a value that may be undefined', 'return host.get("echo").status;', /error TS2532: Object is possibly 'undefined'/],
  ['an untyped parameter', 'function twice(n) { return n * 2; } return twice(1);', /error TS7006: Parameter 'n' implicitly has an 'any' type/],
  ['a bundled module called wrongly', 'const { fingerprint } = await bundleSources("/tmp/probe", "vscode/trust", ["fingerprint"]); await fingerprint.trackedFiles(42);', /error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/],
  ['a bundled module no test has named', 'const { nowhere } = await bundleSources("/tmp/probe", "vscode/trust", ["nowhere"]); nowhere.run();', /error TS2339: Property 'run' does not exist on type 'never'/],
]);

/** @type {{ status: number | null, out: string } | undefined} */
let checked;
/**
 * Every probe checked in one run of tsc with the tests' settings (one program
 * costs what one probe did): tsc's status, and its lines for probe `file`.
 * @param {string} file
 */
function linesOf(file) {
  if (!checked) {
    const files = [['probe-good.test.mjs', GOOD], ...BAD.map(([, body], i) => [`probe-bad-${i}.test.mjs`, probeText('bundleSources, startHost', `  const host = await startHost(t, []);\n  ${body}`)])];
    for (const [name, text] of files) writeFileSync(path.join(scratch, name), text);
    const config = path.join(scratch, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({ extends: path.join(repoRoot, 'tsconfig.test.json'), compilerOptions: { typeRoots: [path.join(repoRoot, 'node_modules', '@types')] }, include: files.map(([name]) => path.join(scratch, name)) }));
    const r = spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
    checked = { status: r.status, out: `${r.stdout}${r.stderr}` };
  }
  return { status: checked.status, all: checked.out, lines: checked.out.split('\n').filter((l) => l.includes(`${file}(`)) };
}

test('a probe that uses the API as it is passes the check', () => {
  const { lines, all } = linesOf('probe-good.test.mjs');
  assert.deepEqual(lines, [], all);
});

BAD.forEach(([what, , error], i) => {
  test(`a test with ${what} fails the check, naming the place`, () => {
    const { status, lines, all } = linesOf(`probe-bad-${i}.test.mjs`);
    assert.equal(status, 2, all);
    assert.equal(lines.length, 1, all);
    assert.match(lines[0] ?? '', new RegExp(`probe-bad-${i}\\.test\\.mjs\\(\\d+,\\d+\\): ${error.source}`));
  });
});
