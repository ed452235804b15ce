// The agent suite (test/e2e/agent/suite.cjs), run whole in the oldest VS Code
// the extension claims, after a check that it is that VS Code.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { test } = require('../vscode/suite/runner.cjs');

test('this is the oldest VS Code package.json admits', () => {
  assert.equal(vscode.version, process.env.ZOT_E2E_VSCODE);
});

// Registers the agent suite's tests after the one above; its run() runs them all.
module.exports = require('../agent/suite.cjs');
