// Loaded with --import by the test scripts. Every test that sets no timeout
// of its own gets this one (the slowest host test takes about 6 s alone, 15 s
// under load), so a hang fails the test that hangs, by name, in half a
// minute, and the lane's --test-timeout (minutes: it bounds each test on Node
// 22 and later, each file as a whole on Node 20) stays a backstop. A test
// that needs longer says so with its own timeout.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const PER_TEST_MS = 30_000;
{
  const require = createRequire(import.meta.url);
  const nt = require('node:test');
  /** @typedef {Pick<typeof nt.test, 'skip' | 'todo' | 'only'>} Modifiers */
  /** @param {Function & Modifiers} fn test() or it() */
  const withTimeout = (fn) => {
    const wrapped = /** @type {((this: unknown, ...args: unknown[]) => Promise<void>) & Partial<Modifiers>} */ (function (...args) {
      if (typeof args[0] !== 'string' && typeof args[0] !== 'object') args.unshift(undefined);
      if (typeof args[1] !== 'object' || args[1] === null) args.splice(1, 0, {});
      const options = /** @type {{ timeout?: number }} */ (args[1]);
      if (options.timeout === undefined) args[1] = { ...options, timeout: PER_TEST_MS };
      return fn.apply(this, args);
    });
    for (const k of /** @type {const} */ (['skip', 'todo', 'only'])) if (fn[k]) wrapped[k] = fn[k];
    return wrapped;
  };
  nt.test = /** @type {typeof nt.test} */ (withTimeout(nt.test));
  nt.it = /** @type {typeof nt.it} */ (withTimeout(nt.it));
  syncBuiltinESMExports();
}
