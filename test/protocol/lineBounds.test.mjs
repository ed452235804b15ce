// How much an over-long line may cost: it is discarded as it streams in, so
// memory stays within the line limit, and one cut off by the end of the
// stream is reported, never passed on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { makeExt, RecordingUI, sleep, startHost, tmpdir, lib, waitFor } from '../helpers.mjs';
import { collect } from './splitter.mjs';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

test('a 1 MiB line without a newline holds no more than the limit while it streams in', async () => {
  const { s, lines, oversized } = collect(1024);
  const refs = [];
  const CHUNK = 300;
  const N = Math.ceil((1024 * 1024) / CHUNK);
  for (let i = 0; i < N; i++) {
    const chunk = new Uint8Array(CHUNK).fill(0x78);
    refs.push(new WeakRef(chunk.buffer)); // a view kept by the splitter keeps the buffer, not the chunk object
    s.push(chunk);
  }
  await new Promise((r) => setImmediate(r)); // WeakRefs hold their targets until the job ends
  gc();
  const kept = refs.filter((r) => r.deref() !== undefined).length;
  assert.ok(kept * CHUNK <= 1024, `${kept} chunks (${kept * CHUNK} bytes) still held, over the 1024-byte limit`);
  s.push(new TextEncoder().encode('\n{"ok":1}\n'));
  assert.equal(oversized.length, 1);
  assert.equal(oversized[0].n, N * CHUNK, 'the dropped line is counted whole');
  assert.deepEqual(lines, ['{"ok":1}'], 'the line after it arrives');
});

test('a last line over the limit, cut off by the end of the stream, is reported as oversized, not passed on', () => {
  for (const chunk of [2048, 700, 1]) {
    const { s, lines, oversized } = collect(1024);
    const text = new TextEncoder().encode(JSON.stringify({ type: 'notify', message: 'y'.repeat(2000) }));
    for (let i = 0; i < text.length; i += chunk) s.push(text.subarray(i, i + chunk));
    s.end();
    assert.deepEqual(lines, [], `chunks of ${chunk}`);
    assert.equal(oversized.length, 1, `chunks of ${chunk}`);
    assert.equal(oversized[0].n, text.length);
    assert.match(oversized[0].head, /^\{"type":"notify"/);
  }
  // At the limit exactly, the last line is still a line.
  const { s, lines, oversized } = collect(1024);
  s.push(new Uint8Array(1024).fill(0x7a));
  s.end();
  assert.equal(lines.length, 1);
  assert.equal(lines[0].length, 1024);
  assert.equal(oversized.length, 0);
});

/** Full collections until external memory stops shrinking: freed backing stores are released after the sweep. */
async function settle() {
  let last = Infinity;
  for (let i = 0; i < 10; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
    const now = process.memoryUsage().arrayBuffers;
    if (now >= last) return;
    last = now;
  }
}

test('an extension streaming 64 MiB without a newline costs the host far less than the line', async (t) => {
  const dir = makeExt(tmpdir(), 'flood', { flood: { bytes: 64 * 1024 * 1024 }, noReady: true });
  await settle();
  const before = process.memoryUsage().arrayBuffers;
  const host = await startHost(t, [dir], { maxLineBytes: 1024 * 1024 });
  await waitFor('the flood written', () => host.stderrOf('flood').includes('FLOODED'), 20_000);
  await sleep(200); // the last chunks reach the host
  await settle();
  const grew = process.memoryUsage().arrayBuffers - before;
  // The limit is 1 MiB; a stream buffer in flight may add a little.
  assert.ok(grew < 8 * 1024 * 1024, `external memory grew by ${(grew / 1024 / 1024).toFixed(1)} MiB`);
  assert.equal(lib.stateOf(host.get('flood')), 'auto_ready', 'the extension is still served');
});

test('an over-limit last line from an extension that exits is reported as a dropped line, never acted on', async (t) => {
  const ui = new RecordingUI();
  const frame = JSON.stringify({ type: 'notify', level: 'info', message: 'z'.repeat(4000) });
  const dir = makeExt(tmpdir(), 'tail', { raw: [frame], noReady: true, crashAfterMs: 300 });
  const host = await startHost(t, [dir], { ui, maxLineBytes: 1024, timing: { restartMax: 0 } });
  const rt = host.get('tail');
  assert.ok(rt, 'the extension is loaded');
  await waitFor('failed after its exit', () => lib.stateOf(rt) === 'failed', 5000);
  assert.ok(rt.problems.some((p) => new RegExp(`dropped a line of ${frame.length} bytes: longer than the 1024-byte limit`).test(p.message)), rt.problems.map((p) => p.message).join('\n'));
  assert.equal(ui.of('notify').length, 0, 'the cut-off frame was not acted on');
});
