/**
 * The header by which the editor's MCP server tells which of VS Code's
 * launches of a server a request belongs to: the editor gives each launch its
 * own value (resolveMcpServerDefinition), and VS Code sends the launch's
 * headers with every request of it, its closing DELETE included. Apart from
 * http.ts so the editor's bundle can name it without the MCP SDK.
 */
export const LAUNCH_HEADER = 'X-Zot-Launch';
