// The 4 MiB frame: the host's own processing time for one big tool_result
// line, against JSON.parse of the same bytes.
import { gc, median, now } from '../util.mjs';

export async function bigFrame(hp, reps, tinyUs) {
  const stdout = extensionStdout(hp.rt);
  let armed = false;
  let chunks = [];
  let handler = 0;
  let lastAt = 0;
  let tIn = 0;
  const pre = (c) => {
    if (!armed) return;
    tIn = now();
    chunks.push(c);
  };
  const post = (c) => {
    if (!armed) return;
    if (c.indexOf(10) !== -1) lastAt = tIn; // the line's end: the clock now runs until the outcome
    else handler += now() - tIn;
  };
  stdout.prependListener('data', pre);
  stdout.on('data', post);
  const once = () => new Promise((resolve, reject) => {
    chunks = [];
    handler = 0;
    lastAt = 0;
    armed = true;
    const tCall = now();
    hp.host.runToolCall('big', {}).then((o) => {
      const tEnd = now();
      armed = false;
      if (o.outcome !== 'completed' || o.isError) return reject(new Error(`big: ${o.outcome} ${o.message}`));
      resolve({ host: handler + (tEnd - lastAt), total: tEnd - tCall, bytes: Buffer.concat(chunks), chunks: chunks.length, textLen: o.content[0].text.length });
    }, reject);
  });
  const parseOnce = (bytes) => {
    const t0 = now();
    const text = bytes.toString('utf8', 0, bytes.length - 1);
    const t1 = now();
    const v = JSON.parse(text);
    const t2 = now();
    if (v.type !== 'tool_result') throw new Error('big frame did not parse to a tool_result');
    return { decode: t1 - t0, parse: t2 - t1 };
  };
  try {
    const host = [], total = [], parse = [], decode = [];
    let bytes = 0;
    let nChunks = 0;
    for (let i = 0; i < reps + 2; i++) {
      gc();
      const r = await once();
      gc();
      const p = parseOnce(r.bytes);
      if (i < 2) continue; // warm-up of both sides
      bytes = r.bytes.length;
      nChunks = r.chunks;
      host.push(r.host);
      total.push(r.total);
      parse.push(p.parse);
      decode.push(p.decode);
    }
    const totalMed = median(total);
    return {
      host: median(host),
      json_parse: median(parse),
      decode_ms: median(decode),
      call_to_outcome_ms: totalMed,
      call_to_outcome_minus_tiny_ms: tinyUs ? totalMed - tinyUs / 1000 : null,
      frame_bytes: bytes,
      chunks: nChunks,
    };
  } finally {
    stdout.removeListener('data', pre);
    stdout.removeListener('data', post);
  }
}

/**
 * The child's stdout is private to the host; it is reached here only to time the host from outside its code.
 * Today ExtensionRuntime's state holds the Launch, whose ExtensionProcess has the stdout; the host before the
 * core redesign kept it at `spawn.child` (read too, so bench/compare.mjs can measure that build).
 */
function extensionStdout(rt) {
  const stdout = rt.current?.launch?.process?.stdout ?? rt.spawn?.child?.stdout;
  if (!stdout) throw new Error('cannot reach the extension stdout inside the host (internal field "current.launch.process.stdout" moved)');
  return stdout;
}
