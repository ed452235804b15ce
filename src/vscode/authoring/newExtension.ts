/**
 * Zot: New Extension…: writes a runnable extension from the scaffold into the
 * project's .zot/extensions or the zot home, reloads, and opens its source.
 * Also takes its answers as an argument, `{ language, name, where }`, so it
 * can be driven without UI.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkExtensionName, globalExtensionsDir, projectExtensionsDir, scaffold, SCAFFOLD_LANGUAGES, type ScaffoldLanguage } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import { projectDirs } from '../core/settings.js';
import { pickProjectDir } from '../ui/pickFolder.js';
import { t } from '../l10n.js';

export interface NewExtensionRequest {
  language?: ScaffoldLanguage;
  name?: string;
  where?: 'project' | 'global';
  /** For `where: 'project'`: the workspace folder (path or name); asked when there are several. */
  folder?: string;
}

export interface NewExtensionResult {
  dir: string;
  name: string;
  files: string[];
}

const MAIN_FILE: Record<ScaffoldLanguage, string> = { node: 'index.mjs', python: 'main.py', go: 'main.go' };
const LANGUAGE_LABEL: Record<ScaffoldLanguage, string> = { node: 'Node.js', python: 'Python', go: 'Go' };

export function registerNewExtension(manager: HostManager): vscode.Disposable {
  return vscode.commands.registerCommand('zot.newExtension', (request?: unknown) => newExtension(manager, isRequest(request) ? request : {}));
}

async function newExtension(manager: HostManager, request: NewExtensionRequest): Promise<NewExtensionResult | undefined> {
  const language = request.language ?? (await pickLanguage());
  if (!language) return undefined;
  const hasProject = projectDirs().length > 0;
  const where = request.where ?? (hasProject ? await pickWhere(manager.view.zotHome) : 'global');
  if (!where) return undefined;
  if (where === 'project' && !hasProject) {
    void vscode.window.showWarningMessage(t('Open a folder first: project extensions live in its .zot/extensions folder.'));
    return undefined;
  }
  const project = where === 'project' ? await pickProjectDir(t('New Zot Extension: folder'), request.folder) : undefined;
  if (where === 'project' && !project) {
    if (request.folder !== undefined) void vscode.window.showWarningMessage(t('New zot extension: "{0}" is not a folder of this workspace.', request.folder));
    return undefined;
  }
  const root = project ? projectExtensionsDir(project) : globalExtensionsDir(manager.view.zotHome);
  const name = request.name ?? (await askName(root));
  if (!name) return undefined;

  let result;
  try {
    result = scaffold({ dir: path.join(root, name), language, name });
  } catch (err) {
    void vscode.window.showErrorMessage(t('New zot extension: {0}', (err as Error).message));
    return undefined;
  }
  const main = vscode.Uri.file(path.join(result.dir, MAIN_FILE[language]));
  await vscode.window.showTextDocument(main, { preview: false });
  if (language === 'go') {
    // The manifest runs the built binary, as zot's Go examples do.
    const terminal = vscode.window.createTerminal({ name: `go build ${name}`, cwd: result.dir });
    terminal.show(true);
    terminal.sendText('go build');
    void vscode.window.showInformationMessage(t('Created the zot extension "{0}". It starts once `go build` (running in the terminal) has made ./{0}: then run Zot: Reload Extensions.', name));
  } else {
    void vscode.window.showInformationMessage(where === 'project' ? t('Created the zot extension "{0}" in {1}. It runs once you allow it.', name, result.dir) : t('Created the zot extension "{0}" in {1}.', name, result.dir));
  }
  await manager.reload();
  return { dir: result.dir, name: result.name, files: result.files };
}

async function pickLanguage(): Promise<ScaffoldLanguage | undefined> {
  const pick = await vscode.window.showQuickPick(
    SCAFFOLD_LANGUAGES.map((language) => ({ label: LANGUAGE_LABEL[language], description: MAIN_FILE[language], language })),
    { title: t('New Zot Extension: language') },
  );
  return pick?.language;
}

async function pickWhere(zotHome: string): Promise<'project' | 'global' | undefined> {
  const dirs = projectDirs();
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: dirs.length > 1 ? t('A workspace folder') : t('This project'),
        description: dirs.length > 1 ? t('{0} folders: you choose which next', dirs.length) : projectExtensionsDir(dirs[0]!),
        detail: t('Runs in this workspace once you allow it'), where: 'project' as const,
      },
      { label: t('Global'), description: globalExtensionsDir(zotHome), detail: t('Runs in every workspace (your zot home)'), where: 'global' as const },
    ],
    { title: t('New Zot Extension: where') },
  );
  return pick?.where;
}

function askName(root: string): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({
      title: t('New Zot Extension: name'),
      prompt: t('A folder of this name is created in {0}', root),
      placeHolder: 'my-extension',
      validateInput: (value) => checkExtensionName(value.trim()) ?? null,
    }),
  ).then((value) => value?.trim() || undefined);
}

function isRequest(value: unknown): value is NewExtensionRequest {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (r.language === undefined || SCAFFOLD_LANGUAGES.includes(r.language as ScaffoldLanguage))
    && (r.name === undefined || typeof r.name === 'string')
    && (r.where === undefined || r.where === 'project' || r.where === 'global')
    && (r.folder === undefined || typeof r.folder === 'string');
}
