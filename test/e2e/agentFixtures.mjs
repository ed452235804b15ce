// What agent.test.mjs and agent-mode.test.mjs both run on: the VSIXes with
// the fake language model (test/e2e/fake-lm) beside them, private copies of
// test/e2e/agent/fixtures (a zot home whose extensions record every frame
// they receive), and those frames read back.
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extensionVsix, fakeLmVsix, testBundleVsix } from './vsix.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** @typedef {import('../../out/types/protocol/frames.js').FrameFromHost} FrameFromHost */

/**
 * The VSIXes to install, each list with the fake model: `test` with the test
 * bundle (the suites read the UI through its API), `user` with the VSIX users get.
 * @param {string} scratch
 */
export async function agentVsixes(scratch) {
  const fakeLm = await fakeLmVsix(scratch);
  return { test: [await testBundleVsix(scratch), fakeLm], user: [await extensionVsix(scratch), fakeLm] };
}

/**
 * A copy of the agent fixtures in a new folder of `scratch` named after `name`, and an empty workspace beside it.
 * @param {string} scratch
 * @param {string} name
 */
export async function stageAgentFixtures(scratch, name) {
  const root = await mkdtemp(path.join(scratch, `${name}-`));
  await cp(path.join(here, 'agent', 'fixtures'), path.join(root, 'fixtures'), { recursive: true });
  const workspace = path.join(root, 'workspace');
  await mkdir(workspace);
  return { root, home: path.join(root, 'fixtures', 'home'), workspace };
}

/**
 * The frames the fixture extension `role` recorded in `home`; of one `type`, when given.
 * @template {FrameFromHost['type']} T
 * @param {string} home
 * @param {string} role
 * @param {T} [type]
 * @returns {Extract<FrameFromHost, { type: T }>[]}
 */
export function frames(home, role, type) {
  const file = path.join(home, `${role}-frames.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((f) => !type || f.type === type);
}
