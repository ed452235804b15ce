// A second reporter for the lanes of scripts/test.mjs: one JSON line per test
// file, `{"file":…, "ms":…}`, the file's whole run (its process included), so
// the run can end with the files that took longest. Node reports a file's run
// as a test named by the file's path (absolute on Node 20, relative to the
// working folder on Node 22 and later) that completes when its process ends.
import path from 'node:path';

/** @param {AsyncIterable<{ type: string, data: { nesting?: number, name?: string, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* fileTimes(source) {
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:complete' && data.nesting === 0 && data.file && data.name !== undefined && path.resolve(data.name) === data.file) {
      yield `${JSON.stringify({ file: data.file, ms: Math.round(data.details?.duration_ms ?? 0) })}\n`;
    }
  }
}
