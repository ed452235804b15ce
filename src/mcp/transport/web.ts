/**
 * node:http and the web-standard Request and Response that SDK v2's HTTP
 * handler serves: a request (its body already read and checked by shared/http.ts)
 * becomes a Request aborted when the client goes away, and the Response is
 * written back as it comes, so an event stream reaches the client event by
 * event.
 */
import type * as http from 'node:http';

export function webRequest(req: http.IncomingMessage, res: http.ServerResponse, port: number): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  return new Request(new URL(req.url ?? '/', `http://127.0.0.1:${port}`), { method: req.method ?? 'GET', headers, signal: abort.signal });
}

export async function sendWebResponse(res: http.ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => (headers[name] ??= []).push(value));
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Each event is sent as it comes: an SSE stream must not wait in a buffer.
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  } catch {
    // The client went away, or the handler ended the stream: nothing left to send.
  } finally {
    res.off('close', stop);
    res.end();
  }
}
