// The one kit of waiting both sides of the tests use: node:test files (through
// test/helpers.mjs) and the suites that run inside VS Code's extension host
// (through test/e2e/vscode/suite/runner.cjs), which load CommonJS.

/** @type {(ms: number) => Promise<void>} */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @template T @typedef {Exclude<T, false | 0 | 0n | '' | null | undefined | void>} Truthy What of T is truthy. */

/**
 * Polls `fn` every `everyMs` until it returns a truthy value, which it
 * returns; after `ms` fails naming `what` and the last value. With
 * `retryErrors`, a throw counts as "not yet" (and is the last value).
 * @template T
 * @param {string} what
 * @param {() => T | PromiseLike<T>} fn
 * @param {number} [ms]
 * @param {number} [everyMs]
 * @param {{ retryErrors?: boolean }} [options]
 * @returns {Promise<Truthy<T>>}
 */
async function waitFor(what, fn, ms = 5000, everyMs = 10, { retryErrors = false } = {}) {
  const deadline = Date.now() + ms;
  /** @type {unknown} */
  let last;
  for (;;) {
    try {
      const value = await fn();
      last = value;
      if (value) return /** @type {Truthy<T>} */ (value);
    } catch (error) {
      if (!retryErrors) throw error;
      last = error;
    }
    if (Date.now() > deadline) {
      const shown = last instanceof Error ? String(last) : typeof last === 'object' ? JSON.stringify(last)?.slice(0, 2000) : String(last);
      throw new Error(`timed out after ${ms} ms waiting for ${what}; last: ${shown}`);
    }
    await sleep(everyMs);
  }
}

module.exports = { sleep, waitFor };
