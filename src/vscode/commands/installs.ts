/**
 * Installs into $ZOT_HOME/extensions: a folder the user picks (asking before
 * replacing one of the same name) and the samples shipped in the VSIX. The
 * copying is install.ts beside it; the questions are asked here.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { globalExtensionsDir } from '../../host/index.js';
import { checkInstall, copyInto, installSamples, type SamplesResult } from './install.js';
import type { CommandKit } from './kit.js';
import { t } from '../l10n.js';

export class InstallCommands {
  constructor(private readonly k: CommandKit) {}

  /** `(path, {overwrite})` installs without asking, except before replacing when overwrite is not given. */
  async installFromFolder(a?: unknown, b?: unknown): Promise<{ installed: boolean; name?: string; dir?: string; replaced?: boolean; reason?: string }> {
    let src = typeof a === 'string' ? a : a instanceof vscode.Uri ? a.fsPath : undefined;
    if (!src) {
      const picked = await vscode.window.showOpenDialog({
        title: t('Install Zot Extension from Folder'),
        openLabel: t('Install'),
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      });
      if (!picked?.[0]) return { installed: false, reason: 'cancelled' };
      src = picked[0].fsPath;
    }
    const overwrite = typeof b === 'object' && b !== null && typeof (b as { overwrite?: unknown }).overwrite === 'boolean' ? (b as { overwrite: boolean }).overwrite : undefined;
    const check = await checkInstall(src, this.k.host.zotHome);
    if (!check.ok) {
      this.k.error(t('Cannot install {0}: {1}', src, check.reason));
      return { installed: false, reason: check.reason };
    }
    if (check.exists) {
      let replace = overwrite;
      if (replace === undefined) {
        const choice = await vscode.window.showWarningMessage(
          t('A zot extension named "{0}" is already installed. Replace it?', check.folder),
          { modal: true, detail: t('{0} will be replaced by a copy of {1}.', check.target, src) },
          'Replace',
        );
        replace = choice === 'Replace';
      }
      if (!replace) {
        this.k.d.trace.record('install-refused', { folder: check.folder, reason: 'already installed' });
        return { installed: false, reason: `"${check.folder}" is already installed at ${check.target}` };
      }
    }
    try {
      await copyInto(src, check.target);
    } catch (err) {
      this.k.error(t('Installing {0} failed: {1}', check.folder, (err as Error).message));
      return { installed: false, reason: (err as Error).message };
    }
    this.k.d.logs.hostLog(`installed ${check.name} from ${src} into ${check.target}${check.exists ? ' (replaced)' : ''}`);
    await this.k.d.manager.reload();
    this.k.info(t('Installed the zot extension "{0}".', check.name), t('Show Zot Extensions'));
    return { installed: true, name: check.name, dir: check.target, replaced: check.exists };
  }

  async installSamples(): Promise<SamplesResult> {
    const samples = path.join(this.k.d.context.extensionPath, 'samples');
    const result = await installSamples(samples, this.k.host.zotHome);
    for (const f of result.failed) this.k.d.logs.hostLog(`sample ${f.folder} not installed: ${f.reason}`, 'warn');
    if (result.installed.length) {
      this.k.d.logs.hostLog(`installed samples ${result.installed.join(', ')} into ${globalExtensionsDir(this.k.host.zotHome)}`);
      await this.k.d.manager.reload();
      this.k.info(`${t('Installed sample zot extensions: {0}.', result.installed.join(', '))}${result.skipped.length ? ` ${t('Already installed: {0}.', result.skipped.join(', '))}` : ''}`, t('Show Zot Extensions'));
    } else if (result.failed.length) {
      this.k.error(t('The sample extensions could not be installed: {0}', result.failed.map((f) => `${f.folder} (${f.reason})`).join('; ')));
    } else {
      this.k.info(t('The sample zot extensions are already installed ({0}).', result.skipped.join(', ') || t('none found')), t('Show Zot Extensions'));
    }
    return result;
  }
}
