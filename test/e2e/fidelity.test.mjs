// Fidelity to zot in the @zot chat loop, the one place with model steps:
// what an extension sees of a request with a tool step and of a blocked
// turn, and what the model sees of a command's display text later. Runs in a real VS Code
// (code-server + headless Chromium) with the scripted fake language model of
// test/e2e/fake-lm; the checks themselves are in fidelity/suite.cjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkInnerSuite } from './innerSuite.mjs';
import { fakeLmVsix, testBundleVsix } from './vsix.mjs';
import { BEHAVE, LEDGER } from '../helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {string} */
let scratch;

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'zot-fidelity-chat-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * A zot home whose extensions are the scriptable fixture, each logging what it receives.
 * @param {string} root
 */
function home(root) {
  const dir = path.join(root, 'home');
  /**
   * @param {string} name
   * @param {Record<string, unknown>} cfg
   */
  const ext = (name, cfg) => {
    mkdirSync(path.join(dir, 'extensions', name), { recursive: true });
    writeFileSync(path.join(dir, 'extensions', name, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: 'node', args: [BEHAVE, JSON.stringify({ name, ...cfg })] }));
  };
  ext('audit', { caps: ['events'], subscribe: { events: ['session_start', 'turn_start', 'tool_call', 'turn_end', 'assistant_message'], intercept: ['tool_call'] } });
  ext('tools', { tools: [{ name: 'echo', description: 'echoes its args' }] });
  // Blocks every turn while it runs; the suite starts it for one test only.
  ext('stepguard', { subscribe: { intercept: ['turn_start'] }, interceptReplies: { turn_start: { block: true, reason: 'no turns today' } } });
  ext('shower', { commands: [{ name: 'show', reply: { action: 'display', display: 'shown to the user only: 4711' } }] });
  // zot's newer wire (docs/ZOT.md), with the fixture written from it: a tool composed through call_tool, a deferred
  // tool and the result that activates it, a command that answers with tool_prompt.
  /**
   * @param {string} name
   * @param {Record<string, unknown>} cfg
   */
  const zot = (name, cfg) => {
    mkdirSync(path.join(dir, 'extensions', name), { recursive: true });
    writeFileSync(path.join(dir, 'extensions', name, 'extension.json'), JSON.stringify({ name, version: '2.1.0', exec: 'node', args: [LEDGER, JSON.stringify({ name, ...cfg })] }));
  };
  zot('ledger', { tools: [{ name: 'ledger_post', description: 'Post an amount.', schema: { type: 'object' } }], handlers: { ledger_post: { kind: 'call', name: 'rate_lookup', args: { pair: 'CHF/EUR' } } } });
  zot('rates', {
    tools: [{ name: 'rate_lookup', description: 'Exchange rate.', schema: { type: 'object' } }, { name: 'notes_find', description: 'Search notes.', schema: { type: 'object' }, exposure: 'deferred' }, { name: 'notes_enable', description: 'Turns the notes tools on.', schema: { type: 'object' } }],
    handlers: {
      rate_lookup: { kind: 'reply', result: { content: [{ type: 'text', text: 'CHF/EUR 1.0412' }], structured_content: { pair: 'CHF/EUR', rate: 1.0412 } } },
      notes_enable: { kind: 'reply', result: { content: [{ type: 'text', text: 'Notes tools enabled.' }], activate_tools: ['notes_find'] } },
    },
    commands: { commit: { kind: 'tool_prompt', prompt: 'and open a pull request', tool_name: 'rate_lookup', tool_args: { pair: 'CHF/EUR' } } },
  });
  return dir;
}

test('@zot: turn_end after every model step with its stop reason; display text never reaches the model; zot\'s call_tool, deferred tools and tool_prompt', { timeout: 600_000 }, async (t) => {
  // The test bundle: the suite reads extension states through its test API.
  const vsixPaths = [await testBundleVsix(scratch), await fakeLmVsix(scratch)];
  const results = path.join(scratch, 'results.json');
  const workspace = path.join(scratch, 'workspace');
  mkdirSync(workspace);
  await checkInnerSuite(t, { vsixPaths, env: { ZOT_HOME: home(scratch) }, results, folder: workspace, testsEntry: path.join(here, 'fidelity', 'suite.cjs'), timeoutMs: 240_000 });
});
