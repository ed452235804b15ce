/** `zot-host mcp`: the bridge on stdio, for any MCP client. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HeadlessUI, ZotHost, type HostOptions } from '../host/index.js';
import { createBridgeServer, hostSource } from './bridge.js';

export async function runMcpStdio(options: HostOptions): Promise<number> {
  // stdout carries MCP; everything human goes to stderr.
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const host = new ZotHost({ ...options, ui: new HeadlessUI(log) });
  host.onLog((e) => e.kind === 'host' && log(`[${e.extension}] ${e.line}`));
  const { server, dispose } = createBridgeServer(hostSource(host));
  void host.start();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await server.connect(transport);
  await closed;
  dispose();
  await server.close().catch(() => undefined);
  await host.dispose();
  return 0;
}
