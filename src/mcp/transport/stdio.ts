/**
 * `zot-host mcp`: the bridge on stdio, for any MCP client, in either MCP era.
 * The client's first message says which: a 2026-07-28 one carries its
 * protocol version in its `_meta` (usually `server/discover`) and is served
 * by SDK v2's stdio entry (modern.ts); anything else (`initialize`) opens a
 * 2025 session (bridge.ts). That message, and all after it, then go to the
 * server of that era unchanged.
 */
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StdioServerTransport as ModernStdioTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { HeadlessHost, type HostOptions } from '../../host/index.js';
import { createBridgeServer, hostSource } from '../era2025/bridge.js';
import { modernServers } from '../era2026/modern.js';
import { onListsChanged } from '../shared/source.js';

/** How long extensions wait for the client to name itself before they start without its name. */
const CLIENT_NAME_WAIT_MS = 2000;
/** A first line longer than this is not an MCP opening worth reading whole: served as 2025, which answers it. */
const MAX_FIRST_LINE = 1024 * 1024;
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** `log` gets every human line; stdout carries MCP, so it must not write there. */
export async function runMcpStdio(options: HostOptions, log: (line: string) => void): Promise<number> {
  const boot = new HeadlessHost(options, { log, hostLines: true });
  const { host } = boot;
  const source = hostSource(host);
  // The life of the server is one session, announced once after the ready wait.
  let started = false;
  const start = (client?: string): void => {
    clearTimeout(waiting);
    if (started) return;
    started = true;
    if (client && options.provider === undefined) host.setModel(client, options.model ?? '');
    void boot.begin();
  };
  // Without --provider, extensions are told the client's name: they start once the client gave it.
  const waiting = options.provider === undefined ? setTimeout(start, CLIENT_NAME_WAIT_MS) : undefined;
  if (options.provider !== undefined) start();

  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', () => resolve());
    boot.onEndSignal(() => resolve(), { once: true });
  });
  const first = await Promise.race([firstLine(process.stdin), closed.then(() => undefined)]);
  const input = new PassThrough();
  if (first) {
    input.write(first.head);
    process.stdin.pipe(input);
  }
  const opening = first && parse(first.line);
  const meta = opening?.params?._meta;

  if (first && opening && typeof meta?.[PROTOCOL_VERSION_KEY] === 'string') {
    const client = meta[CLIENT_INFO_KEY]?.name;
    // A client that only asked which revisions are served (a probe, often from a process it then stops) starts nothing until it asks more.
    if (opening.method !== 'server/discover' || first.more) start(typeof client === 'string' ? client : undefined);
    else process.stdin.once('data', () => start(typeof client === 'string' ? client : undefined));
    const servers = modernServers(source, log);
    const instances = new Set<ReturnType<typeof servers.create>>();
    const sub = onListsChanged(
      source,
      undefined,
      () => {
        for (const s of instances) s.sendToolListChanged().catch(() => undefined);
      },
      () => {
        for (const s of instances) s.sendPromptListChanged().catch(() => undefined);
      },
    );
    const handle = serveStdio(
      // Made once the extensions are loaded, so its instructions carry their model context.
      async () => {
        await host.whenLoaded();
        const s = servers.create(true);
        instances.add(s);
        const closed = s.onclose;
        s.onclose = () => {
          instances.delete(s);
          closed?.();
        };
        return s;
      },
      { legacy: 'reject', transport: new ModernStdioTransport(input, process.stdout), onerror: (err) => log(`MCP (2026-07-28): ${err.message}`) },
    );
    await closed;
    sub.dispose();
    servers.dispose();
    await handle.close().catch(() => undefined);
  } else {
    // A 2025 client names itself in `initialize`: its extensions start then, and the session is made once they are
    // loaded, so its instructions carry their model context (its answer waits as its first tools/list would).
    if (opening?.method === 'initialize') {
      const client = opening.params?.clientInfo?.name;
      start(typeof client === 'string' ? client : undefined);
      await Promise.race([host.whenLoaded(), closed]);
    }
    const { server, dispose } = createBridgeServer(source, log);
    const bridgeInitialized = server.oninitialized;
    server.oninitialized = () => {
      start(server.getClientVersion()?.name);
      bridgeInitialized?.();
    };
    const transport = new StdioServerTransport(input, process.stdout);
    const ended = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
    await server.connect(transport);
    await Promise.race([closed, ended]);
    dispose();
    await server.close().catch(() => undefined);
  }
  clearTimeout(waiting);
  await boot.dispose();
  return 0;
}

/** The first line the client sends, and all that was read with it; undefined when stdin ends before one. */
function firstLine(stdin: NodeJS.ReadableStream): Promise<{ line: string; head: Buffer; more: boolean } | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (value: { line: string; head: Buffer; more: boolean } | undefined): void => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(b);
      length += b.length;
      const head = Buffer.concat(chunks);
      const nl = head.indexOf(10);
      if (nl >= 0) done({ line: head.subarray(0, nl).toString('utf8'), head, more: head.length > nl + 1 && head.subarray(nl + 1).toString().trim() !== '' });
      else if (length > MAX_FIRST_LINE) done({ line: '', head, more: true });
    };
    const onEnd = (): void => (length ? done({ line: Buffer.concat(chunks).toString('utf8'), head: Buffer.concat(chunks), more: false }) : done(undefined));
    stdin.on('data', onData);
    stdin.once('end', onEnd);
  });
}

interface Opening {
  method?: unknown;
  params?: { _meta?: Record<string, { name?: unknown } | undefined>; clientInfo?: { name?: unknown } };
}

function parse(line: string): Opening | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Opening) : undefined;
  } catch {
    return undefined;
  }
}
