// See package.json's description. The suite's console output reaches the
// browser console, as it does under the test driver.
const fs = require('node:fs');

let started = false;

exports.activate = () => {
  const entry = process.env.ZOT_E2E_TESTS_ENTRY;
  const exitFile = process.env.ZOT_E2E_RUNNER_EXIT;
  if (!entry || !exitFile || started) return;
  started = true;
  void (async () => {
    let code = 0;
    try {
      await require(entry).run();
    } catch (error) {
      console.error(`zot-e2e-runner: ${error?.stack ?? error}`);
      code = 1;
    }
    fs.writeFileSync(exitFile, String(code));
  })();
};
