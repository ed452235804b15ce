import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeExt, startHost, tmpdir, lib, waitFor } from '../helpers.mjs';

test('an extension without hello is still starting when the ready grace ends, and fails at the hello bound', async (t) => {
  const dir = makeExt(tmpdir(), 'mute', { noHello: true });
  const host = await startHost(t, [dir], { timing: { helloTimeoutMs: 1200, readyGraceMs: 300 } });
  const rt = host.get('mute');
  assert.ok(rt, 'no extension "mute"');
  assert.equal(lib.stateOf(rt), 'starting', 'the grace passing says nothing about an extension that never spoke');
  assert.equal(rt.problems.length, 0);
  await waitFor('failed', () => lib.stateOf(rt) === 'failed', 3000);
  assert.match(/** @type {string} */ (rt.error), /did not say hello within 1\.2 s/);
  await waitFor('process gone', () => rt.pid === undefined);
});
