// The extension under test in the harness selftest. Its command returns what
// the tests need to see, from inside the installed extension.
const vscode = require('vscode');

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('zotE2eSelftest.hello', (name) => ({
      greeting: `hello ${name}`,
      extensionMode: context.extensionMode,
      isTrusted: vscode.workspace.isTrusted,
    })),
  );
};
