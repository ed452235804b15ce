/**
 * `zot-host mcp --http`: the Streamable HTTP server VS Code uses (http.ts),
 * for any MCP client. It prints one line of JSON with the endpoint and the
 * bearer token on stdout, then serves until SIGINT, SIGTERM or SIGHUP, and
 * stops every extension before it returns.
 */
import { HeadlessHost, type HostOptions } from '../../host/index.js';
import { startMcpHttpServer, type McpHttpServer } from './http.js';

export async function runMcpHttp(options: HostOptions, port: number, print: (line: string) => void, log: (line: string) => void): Promise<number> {
  const boot = new HeadlessHost(options, { log, hostLines: true });
  const { host } = boot;
  const stopped = new Promise<void>((resolve) => boot.onEndSignal(() => resolve(), { once: true }));
  try {
    let server: McpHttpServer;
    try {
      server = await startMcpHttpServer(host, log, { port });
    } catch (err) {
      log(`zot-host: cannot listen on 127.0.0.1:${port}: ${(err as Error).message}`);
      return 1;
    }
    // Extensions start while the client connects; requests wait for loading themselves.
    // The life of the server is one session, announced once after the ready wait.
    void boot.begin();
    host.keepSecret(server.token);
    print(JSON.stringify({ url: server.url, token: server.token }));
    await stopped;
    log('stopping: closing MCP sessions and the extensions');
    await server.close();
    return 0;
  } finally {
    await boot.dispose();
  }
}
