// The Node floor: package.json's engines.node names the oldest maintained
// Node (NODE_FLOOR in scripts/vscode-test-env.mjs; Node 20's life ended in
// April 2026), every package installed (production and development) admits
// it, the bundles are built for it, and `npm test` runs every test on it:
// this file too, once its set-up has installed it into the cache; and the
// runner still names the files that took longest, as that Node reports them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { floorNodeBin, NODE_FLOOR } from '../../scripts/vscode-test-env.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @type {{ engines: { node: string } }} */
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

/**
 * Whether `version` (x.y.z) is in an npm range of the forms packages use in engines.node:
 * alternatives joined by `||`, each a list of comparators (>=, >, <=, <, =, ^, ~, a bare or partial version, *).
 * @param {string} version
 * @param {string} range
 */
function admits(version, range) {
  const [maj, min, pat] = version.split('.').map(Number);
  /** @param {string} v */
  const parts = (v) => v.split('.').map((x) => (x === 'x' || x === '*' ? undefined : Number(x)));
  /** @param {(number | undefined)[]} a */
  const cmp = (a) => {
    for (const [i, n] of [maj, min, pat].entries()) {
      const m = a[i];
      if (m === undefined) return 0;
      if (n !== m) return /** @type {number} */ (n) < m ? -1 : 1;
    }
    return 0;
  };
  return range.split('||').some((alt) => alt.replace(/([<>=^~]+)\s+/g, '$1').trim().split(/\s+/).every((c) => {
    if (c === '*' || c === '') return true;
    const m = /^(>=|<=|>|<|=|\^|~)?(\d+(?:\.(?:\d+|x|\*))?(?:\.(?:\d+|x|\*))?)$/.exec(c);
    assert.ok(m, `a range this test cannot read: "${range}"`);
    const [, op = '', v] = m;
    const want = parts(/** @type {string} */ (v));
    const at = cmp(want);
    switch (op) {
      case '>=': return at >= 0;
      case '>': return at > 0 && !(want.length < 3 && at === 0);
      case '<=': return at <= 0;
      case '<': return at < 0;
      case '^': return maj === want[0] && at >= 0;
      case '~': return maj === want[0] && (want[1] === undefined || min === want[1]) && at >= 0;
      default: return at === 0;
    }
  }));
}

test('the range reader agrees with npm on the forms the lock holds', () => {
  assert.ok(admits('22.0.0', '>=20'));
  assert.ok(!admits('20.19.0', '>=22'));
  assert.ok(admits('22.1.0', '18 || 20 || >=22'));
  assert.ok(!admits('21.0.0', '18 || 20 || >=22'));
  assert.ok(admits('22.0.0', '^18.19.0 || >=20.5.0'));
  assert.ok(!admits('22.0.0', '^18.19.0'));
  assert.ok(admits('22.0.0', '>= 14.6'));
  assert.ok(!admits('22.0.0', '>=0.6.11 <=0.7.0'));
});

test(`engines.node is the floor, Node ${NODE_FLOOR}, and every installed package admits it`, () => {
  assert.equal(pkg.engines.node, `>=${NODE_FLOOR}`);
  /** @type {{ packages: Record<string, { engines?: { node?: string } | string[] }> }} */
  const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
  const refused = Object.entries(lock.packages)
    .filter(([name, p]) => name !== '' && p.engines && !Array.isArray(p.engines) && p.engines.node && !admits(`${NODE_FLOOR}.0.0`, p.engines.node))
    .map(([name, p]) => `${name} (${/** @type {{ node: string }} */ (p.engines).node})`);
  assert.deepEqual(refused, [], `packages that refuse Node ${NODE_FLOOR}.0.0`);
});

test('the bundles are built for the floor', () => {
  assert.match(readFileSync(path.join(repoRoot, 'esbuild.mjs'), 'utf8'), new RegExp(`target: 'node${NODE_FLOOR}'`));
});

test('under npm test, the tests run on the floor Node', { skip: existsSync(floorNodeBin()) ? false : `Node ${NODE_FLOOR} is not in the cache (npm test installs it)` }, () => {
  assert.equal(Number(process.versions.node.split('.')[0]), NODE_FLOOR, `this test runs on ${process.execPath}`);
});

test('the runner ends with the files that took longest, as the Node it runs the tests on reports them; the temporary folders its tests leave go with the run', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'zot-runner-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const made = path.join(dir, 'made.txt');
  const files = ['quick', 'slower'].map((name, i) => {
    const file = path.join(dir, `${name}.test.mjs`);
    // Each leaves a temporary folder behind, as a test that forgets to clean up does.
    const leave = `const fs = await import('node:fs'); const os = await import('node:os'); fs.appendFileSync(${JSON.stringify(made)}, fs.mkdtempSync(os.tmpdir() + '/left-') + '\\n');`;
    writeFileSync(file, `import { test } from 'node:test';\ntest('${name}', async () => { ${leave} await new Promise((r) => setTimeout(r, ${100 + 400 * i})); });\n`);
    return file;
  });
  // A run of its own, not a test of this one (node:test marks its children with NODE_TEST_CONTEXT).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  // Named relative to the project, as npm test names its files.
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'test.mjs'), ...files.map((f) => path.relative(repoRoot, f))], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const longest = /^ {4}longest: (.+)$/m.exec(run.stdout)?.[1];
  assert.ok(longest, `no "longest" line in:\n${run.stdout}`);
  const named = longest.split(', ').map((entry) => path.basename(entry.replace(/ \d+ s$/, '')));
  assert.deepEqual(named, ['slower.test.mjs', 'quick.test.mjs']);
  const left = readFileSync(made, 'utf8').split('\n').filter(Boolean);
  assert.equal(left.length, 2);
  for (const f of left) {
    assert.match(path.basename(path.dirname(path.dirname(f))), /^zot-test-run-/, `${f} is in the run's own folder`);
    assert.ok(!existsSync(f), `${f} went with the run`);
  }
});
