import * as vscode from 'vscode';
import type { UiTrace } from '../testing/trace.js';

/**
 * Shows a folder the way this editor can: in the Explorer when it is part of
 * the workspace, in the OS file manager on a local desktop, else (a remote or
 * web window, where neither exists) a notification offering a new window.
 */
export async function revealFolder(dir: string, trace: UiTrace): Promise<'explorer' | 'os' | 'message'> {
  const uri = vscode.Uri.file(dir);
  if (vscode.workspace.getWorkspaceFolder(uri)) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    trace.record('reveal', { dir, how: 'explorer' });
    return 'explorer';
  }
  if (vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop) {
    await vscode.commands.executeCommand('revealFileInOS', uri);
    trace.record('reveal', { dir, how: 'os' });
    return 'os';
  }
  trace.record('reveal', { dir, how: 'message' });
  void vscode.window.showInformationMessage(`Zot extensions folder: ${dir}`, 'Open in New Window', 'Copy Path').then(async (c) => {
    if (c === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
    else if (c === 'Copy Path') await vscode.env.clipboard.writeText(dir);
  });
  return 'message';
}
