/**
 * The host's light face: the names and constants a front end reads to parse
 * its arguments before it starts a host (the version, the agent hooks' event
 * names, the scaffold's languages, the options' types). It loads no process,
 * HTTP or hash code: `zot-host --help` and a usage error load no more than this.
 */
export { HOST_VERSION } from './version.js';
export { GUARD_HOOKS, type GuardHook, PLUGIN_FORMATS, type PluginFormat } from './harnessNames.js';
export { HOOK_EVENT_NAMES, HOOK_EVENTS, hookEventOf, type HookEvent } from './hooks/hookInput.js';
export { SCAFFOLD_LANGUAGES, type ScaffoldLanguage } from './scaffold/index.js';
export type { HostOptions } from './options.js';
export type { TraceSink } from './connection/frameTrace.js';
