/** `zot-host mcp`: the bridge on stdio, for any MCP client. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HeadlessUI, ZotHost, type HostOptions } from '../host/index.js';
import { createBridgeServer, hostSource } from './bridge.js';

/** How long extensions wait for the client to name itself before they start without its name. */
const CLIENT_NAME_WAIT_MS = 2000;

/** `log` gets every human line; stdout carries MCP, so it must not write there. */
export async function runMcpStdio(options: HostOptions, log: (line: string) => void): Promise<number> {
  const host = new ZotHost({ ...options, ui: new HeadlessUI(log) });
  host.onLog((e) => e.kind === 'host' && log(`[${e.extension}] ${e.line}`));
  const { server, dispose } = createBridgeServer(hostSource(host), log);
  // The life of the server is one session, announced once after the ready wait.
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    void host.start().then(() => host.emit('session_start'));
  };
  let waiting: NodeJS.Timeout | undefined;
  if (options.provider !== undefined) start();
  else {
    // Without --provider, extensions are told the client's name: they start once `initialize` gave it.
    const bridgeInitialized = server.oninitialized;
    server.oninitialized = () => {
      clearTimeout(waiting);
      const client = server.getClientVersion()?.name;
      if (client && !started) host.setModel(client, options.model ?? '');
      start();
      bridgeInitialized?.();
    };
    waiting = setTimeout(start, CLIENT_NAME_WAIT_MS);
  }
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
  clearTimeout(waiting);
  dispose();
  await server.close().catch(() => undefined);
  await host.dispose();
  return 0;
}
