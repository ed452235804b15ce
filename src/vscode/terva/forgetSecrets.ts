/**
 * "Forget Extension Secrets" (terva's `secret forget`): deletes every secret
 * one zot extension stored, installed or not. Takes the extension's name
 * (or a view item) as its argument; without one it offers the extensions
 * that have secrets in a QuickPick. Returns how many were forgotten, or
 * undefined when nothing was picked.
 */
import * as vscode from 'vscode';
import type { UiTrace } from '../ui/trace.js';
import type { VsCodeSecretStore } from './secretStore.js';
import { t } from '../l10n.js';

const FORGET_SECRETS_COMMAND = 'zot.forgetSecrets';

export function registerForgetSecrets(store: VsCodeSecretStore, trace: UiTrace): vscode.Disposable {
  const info = (text: string): void => {
    trace.record('message', { level: 'info', text });
    void vscode.window.showInformationMessage(text);
  };

  return vscode.commands.registerCommand(FORGET_SECRETS_COMMAND, async (a?: unknown): Promise<number | undefined> => {
    let name = nameOf(a);
    if (name === undefined) {
      const have = await store.extensions();
      if (have.length === 0) {
        info(t('No zot extension has secrets stored.'));
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        have.map(({ extension, count }) => ({ label: extension, description: count === 1 ? t('1 secret') : t('{0} secrets', count) })),
        { placeHolder: t('Forget the secrets of which zot extension?') },
      );
      if (!picked) return undefined;
      name = picked.label;
    }
    const count = await store.forget(name);
    if (count === 0) info(t('{0} had no secrets stored.', name));
    else if (count === 1) info(t('Forgot 1 secret of {0}.', name));
    else info(t('Forgot {0} secrets of {1}.', count, name));
    return count;
  });
}

/** The extension an argument names: its name, or a view item of it or of something it has. */
function nameOf(a: unknown): string | undefined {
  if (typeof a === 'string') return a;
  if (typeof a !== 'object' || a === null) return undefined;
  const node = a as { kind?: unknown; name?: unknown; extension?: unknown };
  if (node.kind === 'extension' && typeof node.name === 'string') return node.name;
  if (typeof node.extension === 'string') return node.extension;
  return undefined;
}
