/**
 * The dist/mcp.js bundle: everything that needs the MCP SDK, loaded only when
 * MCP is wanted. The extension takes the in-editor server from it when VS Code
 * first asks for one; zot-host takes its two transports from it for the `mcp`
 * verb, so every other verb (a hook on each tool call above all) starts
 * without reading the SDK.
 */
export * from './transport/http.js';
export { runMcpStdio } from './transport/stdio.js';
export { runMcpHttp } from './transport/serveHttp.js';
// Read by the tests and the bench: the name table is built per registry change, not per call.
export { nameTableBuilds } from './shared/toolNames.js';
