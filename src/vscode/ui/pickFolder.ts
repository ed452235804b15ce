/** Asking which workspace folder a project extension goes in, when there are several. */
import * as vscode from 'vscode';
import { projectExtensionsDir } from '../../host/index.js';
import { projectDirs } from '../core/settings.js';
import { t } from '../l10n.js';

/**
 * The project folder to use: `given` when it names a workspace folder (by
 * path or name), the only folder when there is one, else the user's pick;
 * undefined when there is none or the pick was dismissed.
 */
export async function pickProjectDir(title: string, given?: string): Promise<string | undefined> {
  const dirs = projectDirs();
  if (given !== undefined) {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.fsPath === given || f.name === given);
    return folder && dirs.includes(folder.uri.fsPath) ? folder.uri.fsPath : undefined;
  }
  if (dirs.length <= 1) return dirs[0];
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => dirs.includes(f.uri.fsPath));
  const pick = await vscode.window.showQuickPick(
    folders.map((f) => ({ label: f.name, description: projectExtensionsDir(f.uri.fsPath), dir: f.uri.fsPath })),
    { title, placeHolder: t('Which workspace folder?') },
  );
  return pick?.dir;
}
