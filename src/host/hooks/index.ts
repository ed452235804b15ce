/**
 * The hooks face of the host: a hook's input read, zot's events and
 * intercepts for it, the answer, and the editor windows' contract with the
 * hook verb. It loads no process code: a hook that an editor window answers
 * starts nothing.
 */
export * from './agentHooks.js';
export * from './windows.js';
