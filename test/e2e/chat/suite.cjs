// Runs inside VS Code's extension host: @zot's history across turns with a
// scripted fake language model. Earlier tool calls and their results are
// replayed, calls cut short by Stop come back with how they really ended,
// large results are cut, and 200 tools are chosen from.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, logs, waitState } = require('../vscode/suite/helpers.cjs');
const { frames, requests } = require('../vscode/suite/fakeChat.cjs');

/** How many @zot requests have ended, with how (the host log's line for each: `turn_end` is per model step, and a Stop while tools run sends none, as in zot). */
const ended = async (stop) => Object.values(await logs()).flat().filter((l) => /@zot: the request ended \(/.test(l) && (!stop || l.includes(`(${stop})`))).length;
const { sleep } = require('../../kit.cjs');

/** Sends `@zot <text>` through the chat view; resolves with the model requests it caused once the turn has ended. */
async function chat(text, expectRequests) {
  const before = (await requests()).length;
  const ends = await ended();
  await exec('workbench.action.chat.open', { query: `@zot ${text}` });
  await waitFor(`${expectRequests} model request(s) for "${text}"`, async () => (await requests()).length >= before + expectRequests, 30_000);
  await waitFor(`the turn of "${text}" to end`, async () => (await ended()) > ends, 30_000);
  await sleep(300); // the result reaches VS Code just after the line
  return (await requests()).slice(before);
}

async function newChat() {
  await exec('workbench.action.chat.newChat');
  await sleep(500);
}

/** Sends a prompt whose model calls `tool`, presses Stop once the call reached `role`, and waits for the turn to end. */
async function stopDuring(prompt, role, tool) {
  const before = frames(role, 'tool_call').length;
  const ends = await ended('canceled');
  await exec('workbench.action.chat.open', { query: `@zot ${prompt}` });
  const call = await waitFor(`the ${tool} call delivered`, () => frames(role, 'tool_call').slice(before).find((f) => f.name === tool), 30_000);
  await exec('workbench.action.chat.cancel');
  await waitFor('the request to end canceled', async () => (await ended('canceled')) > ends, 15_000);
  // The handler's result (and so its metadata) reaches VS Code just after the line.
  await sleep(1500);
  return call;
}

/** The calls and results of a request, by call id, in the order the model saw them. */
function replayed(request) {
  const parts = request.messages.flatMap((m) => m.parts.map((p) => ({ role: m.role, ...p })));
  const calls = parts.filter((p) => p.kind === 'call');
  const results = new Map(parts.filter((p) => p.kind === 'result').map((p) => [p.callId, p.content.map((c) => c.text).join('\n')]));
  return { parts, calls, results };
}

test('the extension activates, the fixtures run, and the 200-tool extension waits for its test', async () => {
  await activated();
  for (const r of ['tools', 'legacy', 'crash', 'bulk']) await waitState(`chat-${r}`, ['ready', 'auto_ready']);
  await exec('zot.stopExtension', 'chat-bulk');
  await waitState('chat-bulk', 'stopped');
  assert.equal((await vscode.lm.selectChatModels({ vendor: 'zot-fake' })).length, 1);
});

test('a second turn asks about the first turn\'s tool result and gets it from the history; /help is not replayed', async () => {
  await newChat();
  const [first, second] = await chat('CALL lookup {"key":"door"}', 2);
  const [call] = replayed(second).calls;
  assert.deepEqual({ name: call.name, input: call.input }, { name: 'lookup', input: { key: 'door' } });
  await exec('workbench.action.chat.open', { query: '@zot /help' });
  await sleep(1500);
  const [recall] = await chat('RECALL what was the code word?', 1);
  const { parts, calls, results } = replayed(recall);
  // The first turn in order: prompt, the call, its result, the model's answer; then the new prompt.
  assert.deepEqual(parts.map((p) => `${p.role}:${p.kind}`), ['user:text', 'assistant:call', 'user:result', 'assistant:text', 'user:text']);
  assert.equal(parts[0].text, 'CALL lookup {"key":"door"}');
  assert.deepEqual(calls.map((c) => [c.callId, c.name, c.input]), [[call.callId, 'lookup', { key: 'door' }]]);
  assert.equal(results.get(call.callId), 'the code word for door is PERIWINKLE-4711');
  assert.match(parts[3].text, /^RESULT: the code word for door is PERIWINKLE-4711/);
  assert.ok(!parts.some((p) => /runs zot extensions/.test(p.text ?? '')), 'the /help output is not in the history');
  assert.ok(first.tools.includes('lookup'));
});

test('after Stop, the next turn shows the model how each call really ended', async () => {
  await newChat();
  const hang = await stopDuring('CALL hang {}', 'tools', 'hang');
  assert.ok(frames('tools', 'tool_cancel').some((f) => f.id === hang.id), 'the extension was told to stop');
  await stopDuring('CALL stubborn {}', 'tools', 'stubborn');
  await stopDuring('CALL slow {}', 'legacy', 'slow');
  await stopDuring('MULTI hang lookup', 'tools', 'hang');
  await chat('CALL crash {}', 2);
  const [recall] = await chat('RECALL', 1);
  const { calls, results } = replayed(recall);
  const text = (name, nth = 0) => results.get(calls.filter((c) => c.name === name)[nth].callId);
  assert.deepEqual(calls.map((c) => c.name), ['hang', 'stubborn', 'slow', 'hang', 'lookup', 'crash']);
  assert.match(text('hang'), /^\(interrupted: the user pressed Stop while this call was running\. The extension was told to stop and the call produced no result/);
  assert.match(text('stubborn'), /The extension finished the call after Stop, so it may have taken effect, but its result was dropped/);
  assert.ok(!/stubborn finished anyway/.test(text('stubborn')), 'the late result itself is dropped');
  assert.match(text('slow'), /cannot be told to stop \(it does not support tool_cancel\)\. The call may still be running/);
  assert.match(text('hang', 1), /^\(interrupted: the user pressed Stop/);
  assert.match(text('lookup'), /^\(not run: the user pressed Stop before this call started\. The call never reached the extension, so it had no effect\.\)$/);
  assert.match(text('crash'), /^\(failed: extension "chat-crash" .*Whether the call took effect is unknown/);
  assert.equal(frames('tools', 'tool_call').filter((f) => f.name === 'lookup').length, 1, 'the call after Stop never ran (only the first test\'s lookup did)');
});

test('a 5 MiB result reaches the model cut to 64 KiB with a note of its size, and the history keeps 16 KiB of it', async () => {
  await newChat();
  const [, second] = await chat('CALL big {}', 2);
  const [result] = second.messages.at(-1).parts.filter((p) => p.kind === 'result');
  const texts = result.content.map((c) => c.text);
  assert.equal(texts.length, 2);
  assert.ok(texts[0].startsWith('BIG-START '));
  assert.equal(Buffer.byteLength(texts[0]), 64 * 1024);
  assert.equal(texts[1], '[cut: the tool returned 5 MiB of text; the model sees the first 64 KiB]');
  const [recall] = await chat('RECALL', 1);
  const kept = [...replayed(recall).results.values()][0].split('\n');
  assert.equal(Buffer.byteLength(kept[0]), 16 * 1024);
  assert.deepEqual(kept.slice(1), [
    '[cut: the tool returned 5 MiB of text; the model sees the first 64 KiB]',
    '[cut for the chat history: the model saw 64 KiB of this result\'s text; the first 16 KiB are kept]',
  ]);
});

test('with 206 tools, a request carries 128: those of the extension the prompt names, then the most recently used; it says so once', async () => {
  await exec('zot.startExtension', 'chat-bulk');
  await waitState('chat-bulk', ['ready', 'auto_ready']);
  await newChat();
  const [first, second] = await chat('use chat-bulk: CALL bulk_199 {}', 2);
  assert.equal(first.tools.length, 128);
  assert.ok(first.tools.every((t) => t.startsWith('bulk_')), 'the named extension\'s tools come first');
  assert.ok(!first.tools.includes('bulk_199'));
  assert.equal(replayed(second).results.values().next().value, 'bulk_199 ran', 'a tool that was not sent still runs when the model calls it');
  const [next] = await chat('CALL lookup {"key":"gate"}', 2);
  assert.equal(next.tools.length, 128);
  assert.ok(next.tools.includes('bulk_199'), 'the most recently used tool is sent');
  const said = Object.values(await logs()).flat().filter((l) => /active tools, a request carries at most 128/.test(l));
  assert.equal(said.length, 1, `said once: ${said.join('\n')}`);
  assert.match(said[0], /206 active tools.*sent 128 \(first those of chat-bulk, named in the prompt\), not sent 78: /);
});

exports.run = runAll;
