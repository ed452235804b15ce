/**
 * The contract between a panel's page and the extension lives beside the
 * wire (src/protocol/pageContract.ts): the webview here and the inline MCP
 * App view of src/mcp speak it alike.
 */
export * from '../../protocol/pageContract.js';
