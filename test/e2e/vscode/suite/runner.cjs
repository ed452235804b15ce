// A tiny test runner for the extension host (mocha is not a dependency):
// tests run in order, each with a time limit; every result is printed as a
// ZOTTEST line and written to $ZOT_E2E_RESULTS for the outer node:test.
const fs = require('node:fs');

const tests = [];

/** Registers a test. */
function test(name, fn, { timeoutMs = 60_000 } = {}) {
  tests.push({ name, fn, timeoutMs });
}

async function runAll() {
  const results = [];
  for (const t of tests) {
    const started = Date.now();
    let timer;
    try {
      await Promise.race([
        Promise.resolve().then(t.fn),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${t.timeoutMs} ms`)), t.timeoutMs))),
      ]);
      results.push({ name: t.name, ok: true, ms: Date.now() - started });
      console.log(`ZOTTEST ok - ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      results.push({ name: t.name, ok: false, ms: Date.now() - started, error: String(error?.stack ?? error) });
      console.log(`ZOTTEST not ok - ${t.name} (${Date.now() - started} ms)\n${error?.stack ?? error}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (process.env.ZOT_E2E_RESULTS) fs.writeFileSync(process.env.ZOT_E2E_RESULTS, JSON.stringify(results, null, 2));
  const failed = results.filter((r) => !r.ok);
  console.log(`ZOTTEST summary: ${results.length - failed.length} passed, ${failed.length} failed`);
  if (failed.length) throw new Error(`${failed.length} of ${results.length} tests failed: ${failed.map((f) => f.name).join('; ')}`);
}

const kit = require('../../../kit.cjs');

/** Polls `fn` until it returns a truthy value, which is returned; a throw counts as "not yet" (test/kit.cjs). */
const waitFor = (what, fn, timeoutMs = 20_000, intervalMs = 100) => kit.waitFor(what, fn, timeoutMs, intervalMs, { retryErrors: true });

/**
 * The suite's first test where its window also serves the file's real-UI
 * checks (uiFirst of ../../innerSuite.mjs): waits, up to `waitMs`, until the
 * UI part ended ($ZOT_E2E_UI_DONE exists); with no UI part it passes at once.
 */
function uiPartEnded(name, waitMs) {
  test(name, async () => {
    const done = process.env.ZOT_E2E_UI_DONE;
    if (done) await waitFor('the UI part to end', () => fs.existsSync(done), waitMs, 200);
  }, { timeoutMs: waitMs + 10_000 });
}

module.exports = { test, runAll, waitFor, uiPartEnded, sleep: kit.sleep };
