/**
 * terva's extension settings (docs/TERVA.md 17.1, 22 "Settings.") in VS Code.
 * VS Code cannot contribute settings per zot extension at run time, so one
 * object-valued setting, `zot.extensionSettings`, holds every extension's
 * values by manifest name. A `secret` field never goes into settings.json:
 * it is kept in this profile's SecretStorage as `config:<name>:<key>` (the
 * name written as the secret store writes it) and read into memory, since a
 * hello_ack is answered at once. Values from an untrusted workspace's settings
 * are ignored. Any change is handed to the host, which sends config_update to
 * the extensions whose resolved settings changed.
 */
import * as vscode from 'vscode';
import { DisposableStore, type ConfigField, type SettingsSource } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import type { SecretStorageLike } from './secretStore.js';
import { t } from '../l10n.js';

const SETTING = 'extensionSettings';
const SECTION = 'zot';

/** The storage key of a setting's secret: apart from the extensions' own secrets (`ext:`), by prefix. */
function settingSecretKey(extension: string, key: string): string {
  return `config:${extension.replace(/%/g, '%25').replace(/:/g, '%3A')}:${key}`;
}

type Values = Record<string, Record<string, unknown>>;

/** An object of objects, as the setting must hold: anything else reads as nothing. */
function valuesIn(raw: unknown): Values {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const out: Values = {};
  for (const [name, v] of Object.entries(raw)) if (typeof v === 'object' && v !== null && !Array.isArray(v)) out[name] = v as Record<string, unknown>;
  return out;
}

export class ExtensionSettings implements SettingsSource, vscode.Disposable {
  /** Secret fields' values, by storage key, read from SecretStorage. */
  private readonly cache = new Map<string, string>();
  private readonly subs = new DisposableStore();

  constructor(private readonly storage: SecretStorageLike, private readonly changed: (names?: readonly string[]) => void) {
    this.subs.add(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(`${SECTION}.${SETTING}`)) this.changed(); }));
    this.subs.add(vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed()));
  }

  /** The user's values of one extension: user settings, then a trusted workspace's. */
  values(extension: string): Readonly<Record<string, unknown>> | undefined {
    const seen = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(SETTING);
    const layers = [seen?.globalValue, ...(vscode.workspace.isTrusted ? [seen?.workspaceValue, seen?.workspaceFolderValue] : [])];
    let out: Record<string, unknown> | undefined;
    for (const layer of layers) {
      const v = valuesIn(layer)[extension];
      if (v) out = { ...out, ...v };
    }
    return out;
  }

  secret(extension: string, key: string): string | undefined {
    return this.cache.get(settingSecretKey(extension, key));
  }

  /** Reads every setting's secret into memory (before the host starts: a hello_ack is answered at once). */
  async loadAll(): Promise<void> {
    const keys = (await this.storage.keys()).filter((k) => k.startsWith('config:'));
    const values = await Promise.all(keys.map((k) => this.storage.get(k)));
    keys.forEach((k, i) => {
      const v = values[i];
      if (v !== undefined) this.cache.set(k, v);
    });
  }

  /** Stores one value where it belongs: a secret in SecretStorage, anything else in the user's settings. */
  async set(extension: string, field: ConfigField, value: unknown): Promise<void> {
    if (field.secret) {
      const k = settingSecretKey(extension, field.key);
      if (typeof value === 'string' && value !== '') {
        await this.storage.store(k, value);
        this.cache.set(k, value);
      } else {
        await this.storage.delete(k);
        this.cache.delete(k);
      }
      this.changed([extension]);
      return;
    }
    const config = vscode.workspace.getConfiguration(SECTION);
    const all = valuesIn(config.inspect<unknown>(SETTING)?.globalValue);
    const mine = { ...all[extension] };
    if (value === undefined) delete mine[field.key];
    else mine[field.key] = value;
    await config.update(SETTING, { ...all, [extension]: mine }, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.subs.dispose();
  }
}

/** `zot.configureExtension`: an extension's settings, field by field, with QuickPick and InputBox. */
export function registerConfigureExtension(mgr: HostManager, settings: ExtensionSettings): vscode.Disposable {
  return vscode.commands.registerCommand('zot.configureExtension', async (arg?: string | { name?: string }) => {
    const host = mgr.host;
    const configurable = host.extensions.filter((e) => e.found.manifest?.config?.length);
    const named = typeof arg === 'string' ? arg : arg?.name;
    let ext = configurable.find((e) => e.name === named);
    if (!ext) {
      if (configurable.length === 0) return void vscode.window.showInformationMessage(t('No zot extension declares settings.'));
      const picked = await vscode.window.showQuickPick(configurable.map((e) => ({ label: e.name, description: t('{0} settings', e.found.manifest!.config!.length), ext: e })), { title: t('Configure Extension'), placeHolder: t('Pick a zot extension') });
      if (!picked) return;
      ext = picked.ext;
    }
    const values = settings.values(ext.name) ?? {};
    const fields = ext.found.manifest!.config!;
    const picked = await vscode.window.showQuickPick(fields.map((f) => ({
      label: f.label ?? f.key,
      description: f.secret ? (settings.secret(ext!.name, f.key) ? '••••' : t('not set')) : describe(values[f.key] ?? f.default),
      detail: f.description,
      field: f,
    })), { title: t('Settings of {0}', ext.name), placeHolder: t('Pick a setting to change') });
    if (!picked) return;
    const value = await ask(ext.name, picked.field, values[picked.field.key] ?? picked.field.default);
    if (value === CANCELLED) return;
    await settings.set(ext.name, picked.field, value);
  });
}

const CANCELLED = Symbol('cancelled');

/** Asks for one field's value; undefined clears it (back to the default). */
async function ask(extension: string, f: ConfigField, current: unknown): Promise<unknown> {
  const title = `${extension}: ${f.label ?? f.key}`;
  if (f.type === 'bool' || f.type === 'select') {
    const options: string[] = f.type === 'bool' ? ['true', 'false'] : f.options ?? [];
    const picked = await vscode.window.showQuickPick([...options.map((o) => ({ label: o })), { label: t('Default'), description: describe(f.default) }], { title });
    if (!picked) return CANCELLED;
    if (picked.label === t('Default')) return undefined;
    return f.type === 'bool' ? picked.label === 'true' : picked.label;
  }
  const text = await vscode.window.showInputBox({
    title,
    prompt: f.description,
    password: f.secret,
    value: f.secret || current === undefined ? '' : String(current),
    validateInput: (v) => {
      if (f.required && v === '') return t('A value is required.');
      if (f.type === 'int' && v !== '' && !/^-?\d+$/.test(v)) return t('A whole number is required.');
      return undefined;
    },
  });
  if (text === undefined) return CANCELLED;
  if (text === '') return undefined;
  return f.type === 'int' ? Number(text) : text;
}

function describe(v: unknown): string {
  return v === undefined ? t('not set') : typeof v === 'string' ? v : JSON.stringify(v);
}
