/**
 * The secrets terva extensions keep while running under zot-host (docs/TERVA.md
 * 16.12): a private file in the zot home, given to every host this CLI makes,
 * and `zot-host secrets list|forget <extension>` to see their names or drop
 * them all.
 */
import type { HostOptions } from '../host/names.js';
import { defaultZotHome, FileSecretStore } from '../host/secrets.js';
import type { Parsed } from './args.js';
import { err, out } from './output.js';

function storeFor(options: HostOptions): FileSecretStore {
  return new FileSecretStore(options.zotHome ?? defaultZotHome(options.env ?? process.env));
}

/** The host options with this zot home's secret store as the host's `secrets` service. */
export function withSecretStore(options: HostOptions): HostOptions {
  return { ...options, services: { ...options.services, secrets: storeFor(options) } };
}

/** `zot-host secrets list|forget <extension>`. */
export async function secrets(p: Parsed): Promise<number> {
  const [action, extension] = p.positional as [string, string];
  const store = storeFor(p.host);
  try {
    if (action === 'list') {
      const keys = await store.keys(extension);
      if (p.json) out(JSON.stringify(keys));
      else if (keys.length) out(keys.join('\n'));
      else err(`no secrets stored for ${extension} in ${store.file}`);
      return 0;
    }
    const count = await store.forget(extension);
    out(count ? `forgot ${count} secret${count === 1 ? '' : 's'} of ${extension}` : `no secrets stored for ${extension}`);
    return 0;
  } catch (e) {
    err(`zot-host secrets: ${(e as Error).message}`);
    return 1;
  }
}
