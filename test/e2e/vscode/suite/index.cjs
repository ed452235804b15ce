// Tests entry (extensionTestsPath): runs the suite named by ZOT_E2E_SCENARIO
// inside the extension host, next to the installed VSIX.
const { runAll } = require('./runner.cjs');

exports.run = async () => {
  const scenario = process.env.ZOT_E2E_SCENARIO;
  if (scenario === 'trusted') require('./trusted.cjs');
  else if (scenario === 'untrusted') require('./untrusted.cjs');
  else throw new Error(`unknown ZOT_E2E_SCENARIO "${scenario}"`);
  await runAll();
};
