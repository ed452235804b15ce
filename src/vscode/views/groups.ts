/**
 * Where extensions come from, as the view groups them in a multi-root
 * workspace: explicit paths, then each workspace folder in the workspace's
 * order, then global: the load order, so the first of a name is on top.
 */
import type * as vscode from 'vscode';
import type { ExtensionView } from '../../host/index.js';
import { t } from '../l10n.js';

export interface Group {
  key: string;
  label: string;
  description: string;
  tooltip: string;
  icon: string;
}

/** The key of the group an extension is in. */
export function groupOf(rt: ExtensionView): { key: string } {
  const f = rt.found;
  return { key: f.source === 'project' ? `folder:${f.projectDir ?? ''}` : f.source };
}

/** The groups to show, or undefined for a flat list (one folder or none). */
export function groupsOf(exts: readonly ExtensionView[], folders: readonly vscode.WorkspaceFolder[]): Group[] | undefined {
  if (folders.length < 2) return undefined;
  const count = (key: string): number => exts.filter((rt) => groupOf(rt).key === key).length;
  const described = (n: number): string => (n === 0 ? t('no extensions') : n === 1 ? t('1 extension') : t('{0} extensions', n));
  const groups: Group[] = [];
  const explicit = count('explicit');
  if (explicit) groups.push({ key: 'explicit', label: t('Explicit paths'), description: described(explicit), tooltip: t('Folders named in zot.extensionPaths; they come first in load order'), icon: 'folder-library' });
  for (const folder of folders) {
    const key = `folder:${folder.uri.fsPath}`;
    groups.push({ key, label: folder.name, description: described(count(key)), tooltip: t('Project extensions of the workspace folder {0} (.zot/extensions); they run with this folder as their cwd', folder.uri.fsPath), icon: 'root-folder' });
  }
  // A project extension of a folder that has just left the workspace is still shown until it is gone.
  for (const rt of exts) {
    const { key } = groupOf(rt);
    if (!groups.some((g) => g.key === key) && rt.found.source === 'project') {
      groups.push({ key, label: rt.found.projectDir ?? 'project', description: described(count(key)), tooltip: t('A folder no longer in the workspace'), icon: 'folder' });
    }
  }
  const global = count('global');
  if (global) groups.push({ key: 'global', label: t('Global'), description: described(global), tooltip: t('Extensions of your zot home ($ZOT_HOME/extensions), for every project'), icon: 'globe' });
  return groups;
}
