/** Folders: the extensions folders, an extension's own folder, its manifest. */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { globalExtensionsDir, projectExtensionsDir } from '../../host/index.js';
import { projectDirs } from '../core/settings.js';
import { pickProjectDir } from '../ui/pickFolder.js';
import type { UiTrace } from '../ui/trace.js';
import type { CommandKit } from './kit.js';
import { t } from '../l10n.js';

export class FolderCommands {
  constructor(private readonly k: CommandKit) {}

  /** `a`: 'global', 'project' (asks which folder when there are several) or a workspace folder's path or name. */
  async openExtensionsFolder(a?: unknown): Promise<{ dir: string; how: string } | undefined> {
    const projects = projectDirs();
    let which: string | undefined = typeof a === 'string' ? a : undefined;
    if (which === undefined) {
      if (projects.length === 0) which = 'global';
      else {
        const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => projects.includes(f.uri.fsPath));
        const pick = await vscode.window.showQuickPick([
          { label: t('Global'), description: globalExtensionsDir(this.k.host.zotHome), detail: t('Extensions for every project (like zot\'s $ZOT_HOME/extensions)'), which: 'global' },
          ...folders.map((f) => ({
            label: folders.length > 1 ? t('Workspace folder {0}', f.name) : t('This workspace'),
            description: projectExtensionsDir(f.uri.fsPath),
            detail: t('Extensions of this project only; they run once you allow them'),
            which: f.uri.fsPath,
          })),
        ], { title: t('Open Zot Extensions Folder') });
        which = pick?.which;
      }
    }
    if (!which) return undefined;
    let dir: string;
    if (which === 'global') dir = globalExtensionsDir(this.k.host.zotHome);
    else {
      if (projects.length === 0) {
        this.k.warn(t('Open a folder first: project extensions live in its .zot/extensions folder.'));
        return undefined;
      }
      const project = await pickProjectDir(t('Open Zot Extensions Folder'), which === 'project' ? undefined : which);
      if (!project) {
        if (which !== 'project') this.k.warn(t('"{0}" is not a folder of this workspace.', which));
        return undefined;
      }
      dir = projectExtensionsDir(project);
    }
    await fsp.mkdir(dir, { recursive: true });
    const how = await revealFolder(dir, this.k.d.trace);
    return { dir, how };
  }

  async revealExtensionFolder(a?: unknown): Promise<{ dir: string; how: string } | undefined> {
    const rt = await this.k.pickExtension(a, t('Reveal the folder of which zot extension?'), () => true);
    if (!rt) return undefined;
    return { dir: rt.dir, how: await revealFolder(rt.dir, this.k.d.trace) };
  }

  async openManifest(a?: unknown): Promise<string | undefined> {
    const rt = await this.k.pickExtension(a, t('Open the manifest of which zot extension?'), () => true);
    if (!rt) return undefined;
    const file = path.join(rt.dir, 'extension.json');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    return file;
  }
}

/**
 * Shows a folder the way this editor can: in the Explorer when it is part of
 * the workspace, in the OS file manager on a local desktop, else (a remote or
 * web window, where neither exists) a notification (`said`) offering a new
 * window.
 */
export async function revealFolder(dir: string, trace: UiTrace, said = t('Zot extensions folder: {0}', dir)): Promise<'explorer' | 'os' | 'message'> {
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
  const open = t('Open in New Window');
  const copy = t('Copy Path');
  void vscode.window.showInformationMessage(said, open, copy).then(async (c) => {
    if (c === open) await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
    else if (c === copy) await vscode.env.clipboard.writeText(dir);
  });
  return 'message';
}
