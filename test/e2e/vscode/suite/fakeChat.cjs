// What the chat suites (agent, agent-mode, chat, fidelity) read back: the
// frames a fixture extension recorded in $ZOT_HOME, and the requests the
// fake language model (test/e2e/fake-lm) was sent.
const fs = require('node:fs');
const path = require('node:path');
const { waitFor } = require('./runner.cjs');
const { exec } = require('./helpers.cjs');

/** The frames the fixture extension `role` recorded in $ZOT_HOME/<role>-frames.jsonl; of one `type`, when given. */
function frames(role, type) {
  const file = path.join(process.env.ZOT_HOME, `${role}-frames.jsonl`);
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((f) => !type || f.type === type);
}

/** Every request the fake model has been sent, oldest first. */
const requests = () => exec('zotFake.requests');

/** Sends `@zot <text>` through the chat view, as a user would; resolves when the fake model has seen `count` requests. */
async function chat(text, expectRequests) {
  const before = (await requests()).length;
  await exec('workbench.action.chat.open', { query: `@zot ${text}` });
  if (expectRequests) await waitFor(`${expectRequests} model request(s) for "${text}"`, async () => (await requests()).length >= before + expectRequests, 30_000);
  return (await requests()).slice(before);
}

/** The tool results the model received in a request's last message (earlier ones are the chat's history). */
const resultsIn = (request) => request.messages.at(-1).parts.filter((p) => p.kind === 'result');

module.exports = { chat, frames, requests, resultsIn };
