// Tests entry of ../security.test.mjs: both suites in one window (a window
// costs seconds), over one workspace that sets "zot.home": ".zh" and holds the
// project extension `proj`. suite.cjs runs first: it allows only `sneaky`, so
// changed.cjs finds `proj` as never allowed, as on its own.
const { runAll } = require('../vscode/suite/runner.cjs');

require('./suite.cjs');
require('./changed.cjs');

exports.run = runAll;
