import * as vscode from 'vscode';
import { ZotHost } from '../host/index.js';

let host: ZotHost | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? context.globalStorageUri.fsPath;
  host = new ZotHost({ cwd });
  // Never block activation: extensions start in the background.
  void host.start();
}

export async function deactivate(): Promise<void> {
  await host?.dispose();
  host = undefined;
}
