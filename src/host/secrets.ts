/**
 * The host's secrets face: the file zot-host keeps extensions' secrets in
 * (0600, locked while written) under zot's home. It loads no process code:
 * every zot-host verb reads it while it turns its arguments into options.
 */
export { defaultZotHome } from './discovery/paths.js';
export { FileSecretStore, secretFilePath, SECRET_LOCK_STALE_MS, SECRET_LOCK_WAIT_MS, type SecretFileOptions } from './terva/secretFile.js';
