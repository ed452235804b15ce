/** `zot-host mcp`: the bridge on stdio, for any MCP client. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HeadlessUI, ZotHost, type HostOptions } from '../host/index.js';
import { createBridgeServer, hostSource } from './bridge.js';

/** `log` gets every human line; stdout carries MCP, so it must not write there. */
export async function runMcpStdio(options: HostOptions, log: (line: string) => void): Promise<number> {
  const host = new ZotHost({ ...options, ui: new HeadlessUI(log) });
  host.onLog((e) => e.kind === 'host' && log(`[${e.extension}] ${e.line}`));
  const { server, dispose } = createBridgeServer(hostSource(host), log);
  void host.start();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGHUP', () => resolve());
  });
  await server.connect(transport);
  await closed;
  dispose();
  await server.close().catch(() => undefined);
  await host.dispose();
  return 0;
}
