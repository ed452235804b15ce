// Fidelity to zot in the @zot chat loop, the one place with model steps:
// what an extension sees of a request with a tool step and of a blocked
// turn, and what the model sees of a command's display text later. Runs in a real VS Code
// (code-server + headless Chromium) with the scripted fake language model of
// test/e2e/fake-lm; the checks themselves are in fidelity/suite.cjs.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runExtensionTests, startCodeServer } from './harness.mjs';
import { testBundleVsix, testExtensionVsix } from './vsix.mjs';
import { BEHAVE } from '../helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
let scratch;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-fidelity-chat-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A zot home whose extensions are the scriptable fixture, each logging what it receives. */
function home(root) {
  const dir = path.join(root, 'home');
  const ext = (name, cfg) => {
    mkdirSync(path.join(dir, 'extensions', name), { recursive: true });
    writeFileSync(path.join(dir, 'extensions', name, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: 'node', args: [BEHAVE, JSON.stringify({ name, ...cfg })] }));
  };
  ext('audit', { caps: ['events'], subscribe: { events: ['session_start', 'turn_start', 'tool_call', 'turn_end', 'assistant_message'], intercept: ['tool_call'] } });
  ext('tools', { tools: [{ name: 'echo', description: 'echoes its args' }] });
  // Blocks every turn while it runs; the suite starts it for one test only.
  ext('stepguard', { subscribe: { intercept: ['turn_start'] }, interceptReplies: { turn_start: { block: true, reason: 'no turns today' } } });
  ext('shower', { commands: [{ name: 'show', reply: { action: 'display', display: 'shown to the user only: 4711' } }] });
  return dir;
}

test('@zot: turn_end after every model step with its stop reason; display text never reaches the model', { timeout: 600_000 }, async (t) => {
  // The test bundle: the suite reads extension states through its test API.
  const vsixPaths = [await testBundleVsix(scratch), testExtensionVsix(path.join(repoRoot, 'test', 'e2e', 'fake-lm'), path.join(scratch, 'fake-lm.vsix'))];
  const results = path.join(scratch, 'results.json');
  const workspace = path.join(scratch, 'workspace');
  mkdirSync(workspace);
  const server = await startCodeServer({ vsixPaths, env: { ZOT_HOME: home(scratch), ZOT_E2E_RESULTS: results } });
  let run;
  try {
    run = await runExtensionTests({ server, folder: workspace, testsEntry: path.join(here, 'fidelity', 'suite.cjs'), trusted: true, timeoutMs: 240_000 });
  } finally {
    await server.stop();
  }
  const outcome = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : [];
  for (const r of outcome) t.diagnostic(`${r.ok ? 'ok' : 'FAILED'} - ${r.name} (${r.ms} ms)${r.ok ? '' : `\n${r.error}`}`);
  const failure = () => `exit ${run.exitCode}; console (last 60 lines):\n${run.logs.slice(-60).join('\n')}`;
  assert.ok(outcome.length > 0, `no results\n${failure()}`);
  assert.deepEqual(outcome.filter((r) => !r.ok).map((r) => `${r.name}: ${r.error.split('\n').slice(0, 12).join('\n')}`), [], failure());
  assert.equal(run.exitCode, 0, failure());
});
