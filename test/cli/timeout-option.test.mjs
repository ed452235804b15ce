// zot-host's --timeout: a positive whole number of milliseconds or a usage
// error. 0 would silently mean "no deadline", so it is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI, makeExt, runCli, tmpdir } from '../helpers.mjs';

/** @param {string[]} args */
const run = (args) => runCli(args);

test('--timeout 0, negative or fractional is a usage error (exit 2) for tool and command', { timeout: 30_000 }, async () => {
  const ext = makeExt(tmpdir(), 'cli-slow', { tools: [{ name: 'slow', behaviour: 'hang' }], commands: [{ name: 'slow', hang: true }] });
  for (const verb of ['tool', 'command']) {
    for (const v of ['0', '-5', '1.5', '00']) {
      const r = await run([verb, 'slow', '--no-discover', '--ext', ext, '--timeout', v]);
      assert.equal(r.code, 2, `${verb} --timeout ${v}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`--timeout takes a whole number of milliseconds, got "${v}"`));
      assert.equal(r.stdout, '');
    }
  }
});

test('--timeout 1 is a deadline of 1 ms, not a usage error', { timeout: 30_000 }, async () => {
  const ext = makeExt(tmpdir(), 'cli-slow', { tools: [{ name: 'slow', behaviour: 'hang' }] });
  const r = await run(['tool', 'slow', '--no-discover', '--ext', ext, '--timeout', '1', '--json']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(/** @type {{ outcome: string }} */ (JSON.parse(r.stdout)).outcome, 'timed_out');
});

test('an interactive tool is refused at once by the headless CLI, with no deadline to wait for', { timeout: 30_000 }, async () => {
  const ext = makeExt(tmpdir(), 'cli-ask', { tools: [{ name: 'ask', behaviour: 'hang', interactive: true }] });
  const started = Date.now();
  const r = await run(['tool', 'ask', '--no-discover', '--ext', ext, '--json']);
  assert.equal(r.code, 1);
  assert.equal(/** @type {{ outcome: string }} */ (JSON.parse(r.stdout)).outcome, 'not_run');
  assert.ok(Date.now() - started < 10_000);
});
