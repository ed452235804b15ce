// ask-user — a zot extension that gives the model an `ask_user` tool.
//
// When the model is unsure, it calls
//
//   ask_user({ "question": "Which database?", "choices": ["Postgres", "SQLite"] })
//
// and the host shows a small panel with the question and the choices. You
// pick one with ↑/↓ and Enter; the model gets back "User chose: SQLite".
// Esc (or closing the panel) tells the model "The user dismissed the
// question".
//
// Plain Node (18+), no dependencies, no build step. Runs under zot and under
// any host that speaks the same protocol.
//
// How it uses the protocol
// ------------------------
// * `hello` lists the `tool_cancel` capability, so the host tells us when it
//   gives up on a call (the chat was stopped, the user cancelled the tool...).
//   We then close that call's panel and send no result.
// * The tool is registered with `"interactive": true`: it waits for a human,
//   so the host must not apply its usual 60 s reply deadline.
// * Each call opens its own panel with the spontaneous frame
//     {"type":"open_panel","panel":{"id":…,"title":…,"lines":[…],"footer":…,
//                                   "tool_call_id":"<tool_call id>"}}
//   `tool_call_id` is an extra, optional field: a host can use it to show the
//   panel next to the tool call that asked the question; hosts that do not
//   know it simply ignore it.
// * Every call gets a fresh panel id, so several questions can be pending at
//   once without getting mixed up.
//
// stdout carries protocol frames only; diagnostics go to stderr, which the
// host keeps in the extension's log.

import { createInterface } from "node:readline";
import { stdin, stdout, stderr } from "node:process";

const NAME = "ask-user";
const VERSION = "1.0.0";
const FOOTER = "↑/↓ choose · enter select · esc cancel";
const DISMISSED = "The user dismissed the question";

// ---------------------------------------------------------------------------
// I/O helpers
// ---------------------------------------------------------------------------

/** Write one frame: one JSON object on one line. */
function send(frame) {
  stdout.write(JSON.stringify(frame) + "\n");
}

/** Log a line to stderr (the extension log). Never write logs to stdout. */
function log(message) {
  stderr.write(`[${NAME}] ${message}\n`);
}

/** Reply to a tool_call with a single text block. */
function sendResult(callId, text, isError = false) {
  const frame = { type: "tool_result", id: callId, content: [{ type: "text", text }] };
  if (isError) frame.is_error = true;
  send(frame);
}

// ---------------------------------------------------------------------------
// Pending questions
// ---------------------------------------------------------------------------

/**
 * One entry per question that is still waiting for the user.
 * @typedef {{ callId: string, panelId: string, question: string,
 *             choices: string[], cursor: number }} Ask
 */

/** @type {Map<string, Ask>} pending questions by panel id */
const byPanel = new Map();
/** @type {Map<string, Ask>} the same questions by tool_call id */
const byCall = new Map();
let panelSeq = 0;

/** Panel lines: the choices, with a › marking the highlighted one. */
function lines(ask) {
  return ask.choices.map((choice, i) => (i === ask.cursor ? `› ${choice}` : `  ${choice}`));
}

function render(ask) {
  send({
    type: "panel_render",
    panel_id: ask.panelId,
    title: ask.question,
    lines: lines(ask),
    footer: FOOTER,
  });
}

/** Forget a question. Returns false when it was already finished. */
function forget(ask) {
  if (byPanel.get(ask.panelId) !== ask) return false;
  byPanel.delete(ask.panelId);
  byCall.delete(ask.callId);
  return true;
}

/**
 * Finish a question exactly once.
 * @param {Ask} ask
 * @param {{ closePanel: boolean, result?: { text: string, isError?: boolean } }} how
 *   closePanel: send panel_close (false when the host already closed it);
 *   result: the tool_result to send (omitted after a tool_cancel).
 */
function finish(ask, { closePanel, result }) {
  if (!forget(ask)) return;
  if (closePanel) send({ type: "panel_close", panel_id: ask.panelId });
  if (result) sendResult(ask.callId, result.text, result.isError);
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** Check the model's arguments; returns an error message or null. */
function invalidArgs(args) {
  if (!args || typeof args !== "object" || Array.isArray(args)) return "arguments must be an object";
  if (typeof args.question !== "string" || args.question.trim() === "") {
    return "`question` must be a non-empty string";
  }
  if (!Array.isArray(args.choices) || args.choices.length === 0) {
    return "`choices` must be a non-empty array of strings";
  }
  if (!args.choices.every((c) => typeof c === "string" && c.trim() !== "")) {
    return "every entry of `choices` must be a non-empty string";
  }
  return null;
}

function onToolCall(frame) {
  const callId = String(frame.id ?? "");
  if (frame.name !== "ask_user") {
    sendResult(callId, `unknown tool ${frame.name}`, true);
    return;
  }
  const args = frame.args ?? {};
  const problem = invalidArgs(args);
  if (problem) {
    sendResult(callId, `ask_user: ${problem}`, true);
    return;
  }

  /** @type {Ask} */
  const ask = {
    callId,
    panelId: `ask-user-${++panelSeq}`,
    question: args.question.trim(),
    choices: args.choices.map((c) => c.trim()),
    cursor: 0,
  };
  byPanel.set(ask.panelId, ask);
  byCall.set(callId, ask);

  send({
    type: "open_panel",
    panel: {
      id: ask.panelId,
      title: ask.question,
      lines: lines(ask),
      footer: FOOTER,
      tool_call_id: callId,
    },
  });
  log(`asked (call ${callId}, panel ${ask.panelId}): ${ask.question}`);
}

function onPanelKey(frame) {
  const ask = byPanel.get(frame.panel_id);
  if (!ask) return; // a panel we already finished: ignore late keys
  const last = ask.choices.length - 1;

  switch (frame.key) {
    case "up":
      ask.cursor = ask.cursor > 0 ? ask.cursor - 1 : last; // wrap to the bottom
      render(ask);
      break;
    case "down":
      ask.cursor = ask.cursor < last ? ask.cursor + 1 : 0; // wrap to the top
      render(ask);
      break;
    case "home":
      ask.cursor = 0;
      render(ask);
      break;
    case "end":
      ask.cursor = last;
      render(ask);
      break;
    case "enter": {
      const choice = ask.choices[ask.cursor];
      log(`answered (call ${ask.callId}): ${choice}`);
      finish(ask, { closePanel: true, result: { text: `User chose: ${choice}` } });
      break;
    }
    case "esc":
      log(`dismissed with esc (call ${ask.callId})`);
      finish(ask, { closePanel: true, result: { text: DISMISSED, isError: true } });
      break;
    default:
      break; // other keys do nothing
  }
}

/** The host closed the panel (the user closed it there): that is a dismissal. */
function onPanelClosedByHost(frame) {
  const ask = byPanel.get(frame.panel_id);
  if (!ask) return;
  log(`panel closed by the host (call ${ask.callId})`);
  finish(ask, { closePanel: false, result: { text: DISMISSED, isError: true } });
}

/** The host abandoned the call: close its panel and send no result. */
function onToolCancel(frame) {
  const ask = byCall.get(String(frame.id ?? ""));
  if (!ask) return; // unknown or already finished: nothing to do
  log(`cancelled by the host (call ${ask.callId})`);
  finish(ask, { closePanel: true });
}

// ---------------------------------------------------------------------------
// Start-up and the read loop
// ---------------------------------------------------------------------------

send({ type: "hello", name: NAME, version: VERSION, capabilities: ["tools", "panels", "tool_cancel"] });
send({
  type: "register_tool",
  name: "ask_user",
  description:
    "Ask the user a multiple-choice question and wait for the answer. Use it when a decision " +
    "is genuinely the user's to make (a preference, an ambiguous requirement); keep the " +
    "question short and offer 2-6 distinct choices. Returns the chosen option.",
  schema: {
    type: "object",
    properties: {
      question: { type: "string", description: "The question to show the user." },
      choices: {
        type: "array",
        items: { type: "string" },
        minItems: 1,
        description: "The options the user can pick from, in display order.",
      },
    },
    required: ["question", "choices"],
  },
  interactive: true,
});
send({ type: "ready" });

const rl = createInterface({ input: stdin, crlfDelay: Infinity });

rl.on("line", (line) => {
  let frame;
  try {
    frame = JSON.parse(line);
  } catch (err) {
    log(`ignoring a line that is not JSON: ${err.message}`);
    return;
  }
  if (!frame || typeof frame !== "object") return;

  switch (frame.type) {
    case "hello_ack":
      log(`connected to ${frame.zot_version ? `zot ${frame.zot_version}` : "the host"}`);
      break;
    case "tool_call":
      onToolCall(frame);
      break;
    case "tool_cancel":
      onToolCancel(frame);
      break;
    case "panel_key":
      onPanelKey(frame);
      break;
    case "panel_close":
      onPanelClosedByHost(frame);
      break;
    case "panel_resize":
      break; // the panel is a plain list; nothing depends on its size
    case "shutdown":
      send({ type: "shutdown_ack" });
      rl.close();
      break;
    default:
      log(`ignoring frame type ${JSON.stringify(frame.type)}`);
  }
});

// stdin closed (the host went away or shut us down): nothing left to do.
rl.on("close", () => process.exit(0));
