// Runs inside VS Code's extension host (see ../fidelity.test.mjs): @zot with the
// fake language model, and the frames the fixture extensions logged.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, testApi, waitEvents, waitState } = require('../vscode/suite/helpers.cjs');

/** Frames an extension received, from its log (the fixture logs each as `RECV <json>`). */
function received(name, type) {
  const file = path.join(process.env.ZOT_HOME, 'logs', `ext-${name}.log`);
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('RECV ')).map((l) => JSON.parse(l.slice(5))).filter((f) => !type || f.type === type);
}
// What the fake model was sent, and @zot prompts sent to it.
const { chat, requests } = require('../vscode/suite/fakeChat.cjs');

test('the extension activates and the fixtures run', async () => {
  await activated();
  for (const name of ['audit', 'tools', 'shower', 'stepguard', 'ledger', 'rates']) await waitState(name, ['ready', 'auto_ready']);
  await exec('zot.stopExtension', 'stepguard');
  await waitState('stepguard', 'stopped');
  assert.equal((await vscode.lm.selectChatModels({ vendor: 'zot-fake' })).length, 1);
});

test('turn_end follows every model step, with that step\'s stop reason (zot: tool_use, then end)', async () => {
  await chat('CALL echo {"text":"one step with a tool"}', 2);
  await waitFor('the request to end', () => received('audit', 'event').some((f) => f.event === 'turn_end' && f.stop !== 'tool_use'));
  const steps = received('audit', 'event').filter((f) => f.event === 'turn_start' || f.event === 'turn_end').map((f) => (f.event === 'turn_start' ? `turn_start ${f.step}` : `turn_end ${f.stop}`));
  assert.deepEqual(steps, ['turn_start 1', 'turn_end tool_use', 'turn_start 2', 'turn_end end']);
  // zot's order within a step: the message, its calls announced with the model's args, the step's end, then each call's intercept.
  const seen = received('audit').filter((f) => f.type === 'event' || f.type === 'event_intercept').map((f) => {
    if (f.type === 'event_intercept') return `intercept ${f.event}`;
    if (f.event === 'turn_start') return `turn_start ${f.step}`;
    if (f.event === 'turn_end') return `turn_end ${f.stop}`;
    if (f.event === 'assistant_message') return f.text === undefined ? 'assistant_message (no text)' : 'assistant_message';
    if (f.event === 'tool_call') return `tool_call ${f.tool_name} ${JSON.stringify(f.tool_args)}`;
    return f.event;
  });
  assert.deepEqual(seen, [
    'session_start', 'turn_start 1', 'assistant_message (no text)', 'tool_call echo {"text":"one step with a tool"}', 'turn_end tool_use', 'intercept tool_call',
    'turn_start 2', 'assistant_message', 'turn_end end',
  ]);
});

test('a command\'s display text is shown, and never part of the conversation the model sees later', async () => {
  await chat('/show', 0);
  await waitFor('the command ran', () => received('shower', 'command_invoked').length === 1);
  // Let the chat view finish the response before the next request joins the same chat.
  await new Promise((r) => setTimeout(r, 2000));
  const [next] = await chat('what do you know?', 1);
  const texts = next.messages.flatMap((m) => m.parts).map((p) => p.text ?? '');
  assert.ok(texts.some((t) => t.includes('what do you know?')), 'the request itself');
  assert.deepEqual(texts.filter((t) => t.includes('4711')), [], `the display text was fed to the model: ${JSON.stringify(next.messages)}`);
});

test('a blocked turn_start: its event has gone out, then turn_end with stop "error" and the reason; the model is not asked', async () => {
  await exec('zot.startExtension', 'stepguard');
  await waitState('stepguard', ['ready', 'auto_ready']);
  try {
    await exec('workbench.action.chat.newChat');
    await new Promise((r) => setTimeout(r, 500));
    const before = received('audit', 'event').length;
    const asked = (await requests()).length;
    await exec('workbench.action.chat.open', { query: '@zot this turn is blocked' });
    await waitFor('the blocked turn to end', () => received('audit', 'event').slice(before).some((f) => f.event === 'turn_end'));
    const seen = received('audit', 'event').slice(before).map((f) => (f.event === 'turn_end' ? `turn_end ${f.stop}: ${f.error}` : f.event === 'turn_start' ? `turn_start ${f.step}` : f.event));
    assert.deepEqual(seen, ['session_start', 'turn_start 1', 'turn_end error: no turns today']);
    assert.equal((await requests()).length, asked, 'no model request');
  } finally {
    await exec('zot.stopExtension', 'stepguard');
  }
});

/** Sends `@zot <text>` in a new chat; resolves with what @zot wrote (the test bundle's trace of the reply). */
async function reply(text) {
  await exec('workbench.action.chat.newChat');
  await new Promise((r) => setTimeout(r, 500));
  testApi().trace({ clear: true });
  await exec('workbench.action.chat.open', { query: `@zot ${text}` });
  const [r] = await waitEvents('chat-reply', () => true, 30_000);
  return r;
}

test('@zot /help lists the commands and tools the extensions offer, and the built-ins', async () => {
  const asked = (await requests()).length;
  const r = await reply('/help');
  assert.equal(r.command, 'help');
  assert.match(r.markdown, /`\/show` .*\*\(shower\)\*/);
  assert.match(r.markdown, /`echo` — echoes its args \*\(tools\)\*/);
  assert.match(r.markdown, /Built-ins: `\/help`, `\/reload`\./);
  assert.equal((await requests()).length, asked, 'the model is not asked');
});

test('@zot /name args runs that zot command with its arguments, without the model', async () => {
  const before = received('shower', 'command_invoked').length;
  const asked = (await requests()).length;
  const r = await reply('/show two words');
  const [invoked] = received('shower', 'command_invoked').slice(before);
  assert.deepEqual({ name: invoked.name, args: invoked.args }, { name: 'show', args: 'two words' });
  assert.equal(r.markdown, 'shown to the user only: 4711');
  assert.equal((await requests()).length, asked, 'the model is not asked');
  assert.match((await reply('/nosuch')).markdown, /There is no zot command `\/nosuch`\. Available: .*`\/show`/);
});

test('zot.chat.maxSteps: 25 by default; at 1, a request that wants a second step stops after one', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  assert.equal(config.get('chat.maxSteps'), 25);
  await config.update('chat.maxSteps', 1, vscode.ConfigurationTarget.Global);
  try {
    const asked = (await requests()).length;
    const r = await reply('CALL echo {"text":"only one step"}');
    assert.equal(r.stop, 'max_steps');
    assert.match(r.markdown, /Stopped after 1 steps \(the `zot\.chat\.maxSteps` setting\)/);
    assert.equal((await requests()).length, asked + 1, 'one model request');
  } finally {
    await config.update('chat.maxSteps', undefined, vscode.ConfigurationTarget.Global);
  }
});

/** A new chat, so a request's history holds nothing of the tests before it. */
async function newChat() {
  await exec('workbench.action.chat.newChat');
  await new Promise((r) => setTimeout(r, 500));
}

/** The text parts of a request's last message's tool results. */
const resultTexts = (request) => request.messages.at(-1).parts.filter((p) => p.kind === 'result').flatMap((r) => r.content.filter((c) => c.kind === 'text').map((c) => c.text));

test('zot\'s call_tool: a tool composed from another extension\'s tool; the guard is asked about the inner call, which names its origin', async () => {
  await newChat();
  const before = received('audit', 'event_intercept').length;
  const [, second] = await chat('CALL ledger_post {"account":"4020"}', 2);
  assert.deepEqual(resultTexts(second), ['ledger_post got: CHF/EUR 1.0412']);
  // The structured value goes to the model as JSON data after the text.
  const asked = received('audit', 'event_intercept').slice(before).filter((f) => f.event === 'tool_call').map((f) => `${f.tool_name} ${f.origin_extension ?? '-'}`);
  assert.deepEqual(asked, ['ledger_post -', 'rate_lookup ledger']);
});

test('zot\'s deferred tool: not offered until a result activates it, then offered in the next step', async () => {
  await newChat();
  const [first, second] = await chat('CALL notes_enable {}', 2);
  assert.ok(first.tools.includes('notes_enable') && !first.tools.includes('notes_find'), `first offered: ${first.tools}`);
  assert.ok(second.tools.includes('notes_find'), `then offered: ${second.tools}`);
});

test('zot\'s tool_prompt: /commit runs its tool through the door, then the model reads the prompt, the call and its result', async () => {
  await newChat();
  const [first] = await chat('/commit', 1);
  const parts = first.messages.flatMap((m) => m.parts.map((p) => `${m.role} ${p.kind}${p.kind === 'text' ? ` ${p.text}` : p.kind === 'call' ? ` ${p.name}` : ''}`));
  assert.deepEqual(parts.slice(-3), ['user text and open a pull request', 'assistant call rate_lookup', 'user result']);
  assert.deepEqual(resultTexts(first), ['CHF/EUR 1.0412']);
  assert.deepEqual(first.messages.at(-1).parts[0].content.map((c) => c.kind), ['text', 'data'], 'the structured value as JSON data after the text');
});

exports.run = runAll;
