/**
 * The MCP layer's face: what the editor and the CLI may use of src/mcp
 * (scripts/check-layers.mjs, front-ends-use-the-mcp-face). Only light values
 * are here: whatever imports this face pays for no MCP SDK. The server itself
 * is the dist/mcp.js bundle (entry.ts), loaded at run time when MCP is
 * wanted; its type is McpBundle.
 */
export { LAUNCH_HEADER } from './launch.js';
export { listKeys, type HostSource } from './shared/source.js';
export { servesTool } from './shared/toolNames.js';
export type { McpHttpServer } from './transport/http.js';

/** What the dist/mcp.js bundle exports (the HTTP listener and the two `zot-host mcp` transports). */
export type McpBundle = typeof import('./entry.js');
