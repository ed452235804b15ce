/**
 * terva's secrets (docs/TERVA.md 16.12, 22) in VS Code's SecretStorage, which
 * belongs to this profile on this machine and is not synced. Each secret is
 * stored as `ext:<manifest name>:<key>`. A manifest name may itself hold a
 * colon, so in the name `%` and `:` are written `%25` and `%3A`: the first
 * colon after the name then always ends it, and one extension's keys can
 * never be read as another's (for ordinary names the key is exactly terva's).
 * Values go only to the storage, never to a log.
 */
import type * as vscode from 'vscode';
import type { SecretStore } from '../../host/index.js';

/** What this store needs of `vscode.SecretStorage`. */
export type SecretStorageLike = Pick<vscode.SecretStorage, 'get' | 'store' | 'delete' | 'keys'>;

const PREFIX = 'ext:';

/** The storage key of one extension's secret. */
export function storageKey(extension: string, key: string): string {
  return `${PREFIX}${encodeName(extension)}:${key}`;
}

/** The extension and key a storage key holds; undefined for anything else stored (a setting's secret). */
export function parseStorageKey(stored: string): { extension: string; key: string } | undefined {
  if (!stored.startsWith(PREFIX)) return undefined;
  const end = stored.indexOf(':', PREFIX.length);
  if (end < 0) return undefined;
  const extension = decodeName(stored.slice(PREFIX.length, end));
  return extension === undefined ? undefined : { extension, key: stored.slice(end + 1) };
}

function encodeName(name: string): string {
  return name.replace(/%/g, '%25').replace(/:/g, '%3A');
}

function decodeName(encoded: string): string | undefined {
  // Only what encodeName writes: anything else is not one of ours.
  if (/%(?!25|3A)/.test(encoded)) return undefined;
  return encoded.replace(/%3A/g, ':').replace(/%25/g, '%');
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class VsCodeSecretStore implements SecretStore {
  readonly where = 'VS Code secret storage (this profile, not synced)';

  constructor(private readonly storage: SecretStorageLike) {}

  async get(extension: string, key: string): Promise<string | undefined> {
    return this.storage.get(storageKey(extension, key));
  }

  async set(extension: string, key: string, value: string): Promise<void> {
    await this.storage.store(storageKey(extension, key), value);
  }

  async delete(extension: string, key: string): Promise<void> {
    await this.storage.delete(storageKey(extension, key));
  }

  async keys(extension: string): Promise<string[]> {
    return (await this.stored()).filter((s) => s.extension === extension).map((s) => s.key).sort(byCodeUnit);
  }

  async forget(extension: string): Promise<number> {
    const keys = await this.keys(extension);
    for (const key of keys) await this.storage.delete(storageKey(extension, key));
    return keys.length;
  }

  /** Every extension that has secrets here, with how many, by name (installed or not). */
  async extensions(): Promise<{ extension: string; count: number }[]> {
    const counts = new Map<string, number>();
    for (const s of await this.stored()) counts.set(s.extension, (counts.get(s.extension) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => byCodeUnit(a, b)).map(([extension, count]) => ({ extension, count }));
  }

  private async stored(): Promise<{ extension: string; key: string }[]> {
    return (await this.storage.keys()).map(parseStorageKey).filter((s): s is { extension: string; key: string } => s !== undefined);
  }
}
