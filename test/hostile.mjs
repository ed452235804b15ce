// Extension folders whose program is the hostile fixture (test/fixtures/node/hostile.js).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, waitFor } from './helpers.mjs';

export const HOSTILE = path.join(ROOT, 'test', 'fixtures', 'node', 'hostile.js');

/**
 * @param {string} root
 * @param {string} folder
 * @param {Record<string, unknown>} [cfg] the fixture's config (test/fixtures/node/hostile.js)
 */
export function makeHostile(root, folder, cfg = {}) {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  const manifest = { name: folder, version: '1.0.0', exec: 'node', args: [HOSTILE, JSON.stringify({ name: folder, ...cfg })] };
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify(manifest));
  return dir;
}

/** Terminal controls that must never reach a terminal raw: ESC, CR, BEL, C1 CSI, bidi overrides and isolates. */
// eslint-disable-next-line no-control-regex
export const RAW_CONTROLS = /[\u0007\u001b\r\u009b\u202a-\u202e\u2066-\u2069]/;

/**
 * The tool names an MCP client is served once the fixture registered `last` (its last tool): tools/list again until
 * then, for an extension slower than the host's 3 s ready grace lists nothing the first time. Each answer within 10 s.
 * @param {() => Promise<{ tools: { name: string }[] }>} list
 * @param {string} last
 * @returns {Promise<string[]>}
 */
export function namesOnceRegistered(list, last) {
  return waitFor(`${last} listed`, async () => {
    /** @type {Promise<never>} */
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('tools/list did not answer within 10000 ms')), 10_000).unref());
    const answer = await Promise.race([list(), late]);
    const names = answer.tools.map((x) => x.name);
    return names.includes(last) && names;
  }, 20_000, 200);
}
