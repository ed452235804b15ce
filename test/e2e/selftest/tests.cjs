// Tests entry of the harness selftest: runs in the extension host, next to the
// VSIX-installed zot-host.zot-e2e-selftest. Prints one RESULT line that
// selftest.test.mjs reads from the console.
const assert = require('node:assert/strict');
const vscode = require('vscode');

const EXTENSION_ID = 'zot-host.zot-e2e-selftest';

exports.run = async () => {
  const started = Date.now();
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed`);

  // Activated by onStartupFinished on its own: wait, never call activate().
  while (!extension.isActive) {
    assert.ok(Date.now() - started < 30_000, `${EXTENSION_ID} did not activate within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const reply = await vscode.commands.executeCommand('zotE2eSelftest.hello', 'harness');
  assert.equal(reply.greeting, 'hello harness');
  // Installed from the VSIX, so it runs as a user has it, not under development.
  assert.equal(reply.extensionMode, vscode.ExtensionMode.Production);
  assert.equal(reply.isTrusted, vscode.workspace.isTrusted);

  console.log(`RESULT ${JSON.stringify({
    vscodeVersion: vscode.version,
    isTrusted: vscode.workspace.isTrusted,
    folder: vscode.workspace.workspaceFolders?.[0]?.uri.toString(),
    activationWaitMs: Date.now() - started,
  })}`);
};
