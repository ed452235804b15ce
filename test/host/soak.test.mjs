// A short run of the soak (npm run soak runs it long): random calls, cancels,
// timeouts, crashes, restarts, reloads, panels and keys against real fixture
// extensions, with the host's invariants checked after every step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ROOT } from '../helpers.mjs';

test('the soak: 2,000 operations, no violation, no process left', { timeout: 240_000 }, async (t) => {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'soak.mjs'), '--ops', '2000', '--seed', String(Date.now() % 100_000), '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((r) => child.on('close', r));
  /** @type {{ operations: number, seconds: number, seed: number, rssStartMB: number, rssEndMB: number, violations: number, processesLeft: number, outcomes: Record<string, number> }} */
  const figures = JSON.parse(stdout);
  t.diagnostic(`${figures.operations} operations in ${figures.seconds} s, seed ${figures.seed}; RSS ${figures.rssStartMB} → ${figures.rssEndMB} MB`);
  assert.equal(figures.violations, 0, stderr);
  assert.equal(figures.processesLeft, 0);
  assert.equal(figures.operations, 2000);
  assert.ok(figures.outcomes['echo:completed'] > 0, 'calls completed');
  assert.ok(figures.outcomes['timeout:timed_out'] > 0, 'timeouts happened');
  assert.ok(figures.outcomes['cancel:canceled'] > 0, 'cancels happened');
  assert.equal(code, 0, stderr);
});
