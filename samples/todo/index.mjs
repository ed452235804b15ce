// todo — a persistent todo list for zot (and any host that speaks its
// extension protocol).
//
//   /todo               open the list in a panel
//                         ↑/↓ move · x toggle done · d delete · esc close
//   /todo-add <text>    add an item
//   todo_add({text})    tool: lets the model add an item
//   todo_list()         tool: lets the model read the list
//
// The list is saved as todos.json in the extension's data directory, which the
// host announces in `hello_ack.data_dir` (falling back to `extension_dir`, then
// to the working directory, which is the extension's own folder). The file
// format {"items":[{"text","done"}],"cursor":n} is the one zot's own Go todo
// example uses, so both can share a list.
//
// Plain Node (18+), no dependencies, no build step. stdout carries protocol
// frames only; diagnostics go to stderr, which the host keeps in the
// extension's log.

import { createInterface } from "node:readline";
import { stdin, stdout, stderr } from "node:process";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const NAME = "todo";
const VERSION = "1.0.0";
const PANEL_ID = "todos-main";
const FOOTER = "↑/↓ move · x toggle · d delete · esc close";

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

function notify(level, message) {
  send({ type: "notify", level, message });
}

function respond(id, fields) {
  send({ type: "command_response", id, ...fields });
}

function toolResult(id, text, isError = false) {
  const frame = { type: "tool_result", id, content: [{ type: "text", text }] };
  if (isError) frame.is_error = true;
  send(frame);
}

// ---------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------

/** @type {{ items: { text: string, done: boolean }[], cursor: number }} */
let store = { items: [], cursor: 0 };
let file = join(process.cwd(), "todos.json"); // replaced once hello_ack arrives

/** Re-read todos.json so edits made by another session are picked up. */
function load() {
  let raw;
  try {
    raw = readFileSync(file, "utf8");
  } catch (err) {
    if (err.code !== "ENOENT") log(`cannot read ${file}: ${err.message}`);
    return; // no file yet: keep what we have (an empty list at first)
  }
  try {
    const parsed = raw.trim() === "" ? {} : JSON.parse(raw);
    const items = Array.isArray(parsed.items) ? parsed.items : [];
    store = {
      items: items
        .filter((it) => it && typeof it.text === "string")
        .map((it) => ({ text: it.text, done: it.done === true })),
      cursor: Number.isInteger(parsed.cursor) ? parsed.cursor : 0,
    };
    clampCursor();
  } catch (err) {
    // Keep the unreadable file for the user instead of overwriting it.
    const aside = `${file}.corrupt`;
    try {
      renameSync(file, aside);
    } catch {
      /* best effort */
    }
    log(`${file} is not valid JSON (${err.message}); moved it to ${aside}`);
    notify("warn", `todos.json was unreadable and has been moved to ${aside}`);
    store = { items: [], cursor: 0 };
  }
}

/** Write todos.json atomically (temp file + rename). Returns false on error. */
function save() {
  clampCursor();
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(store, null, 2) + "\n");
    renameSync(tmp, file);
    return true;
  } catch (err) {
    log(`cannot save ${file}: ${err.message}`);
    notify("error", `todo: could not save the list (${err.message})`);
    return false;
  }
}

function clampCursor() {
  const last = store.items.length - 1;
  store.cursor = last < 0 ? 0 : Math.max(0, Math.min(store.cursor, last));
}

/** Append an item, save, tell the user, refresh the panel. False if saving failed. */
function addItem(text) {
  store.items.push({ text, done: false });
  store.cursor = store.items.length - 1;
  if (panelOpen) render();
  if (!save()) return false;
  notify("success", `Added "${text}"`);
  return true;
}

function summary() {
  const done = store.items.filter((it) => it.done).length;
  return `${store.items.length - done} open, ${done} done`;
}

// ---------------------------------------------------------------------------
// The panel
// ---------------------------------------------------------------------------

let panelOpen = false;

function panelSpec() {
  const done = store.items.filter((it) => it.done).length;
  const lines =
    store.items.length === 0
      ? ["  No todos yet.", "", "  Add one with /todo-add <text>."]
      : store.items.map((it, i) => `${i === store.cursor ? "›" : " "} ${it.done ? "✓" : "□"} ${it.text}`);
  return { id: PANEL_ID, title: `Todos (${done}/${store.items.length} done)`, lines, footer: FOOTER };
}

function render() {
  const { id, ...rest } = panelSpec();
  send({ type: "panel_render", panel_id: id, ...rest });
}

function onPanelKey(frame) {
  if (frame.panel_id !== PANEL_ID || !panelOpen) return;
  load();
  const key = frame.key === "rune" ? String(frame.text ?? "").toLowerCase() : frame.key;
  switch (key) {
    case "up":
      store.cursor--;
      break;
    case "down":
      store.cursor++;
      break;
    case "home":
      store.cursor = 0;
      break;
    case "end":
      store.cursor = store.items.length - 1;
      break;
    case "x":
    case " ":
      if (store.items.length > 0) store.items[store.cursor].done = !store.items[store.cursor].done;
      break;
    case "d":
    case "delete":
      if (store.items.length > 0) store.items.splice(store.cursor, 1);
      break;
    case "esc":
      panelOpen = false;
      send({ type: "panel_close", panel_id: PANEL_ID });
      return;
    default:
      return; // keys we do not use change nothing
  }
  save();
  render();
}

// ---------------------------------------------------------------------------
// Commands and tools
// ---------------------------------------------------------------------------

function onCommand(frame) {
  const args = String(frame.args ?? "").trim();
  switch (String(frame.name ?? "").toLowerCase()) {
    case "todo":
      load();
      panelOpen = true;
      respond(frame.id, { action: "open_panel", open_panel: panelSpec() });
      return;
    case "todo-add":
      if (args === "") {
        respond(frame.id, { action: "noop", error: "usage: /todo-add <text>" });
        return;
      }
      load();
      addItem(args); // success and failure are both reported with notify
      respond(frame.id, { action: "noop" });
      return;
    default:
      respond(frame.id, { action: "noop", error: `todo: unknown command /${frame.name}` });
  }
}

function onToolCall(frame) {
  const args = frame.args && typeof frame.args === "object" ? frame.args : {};
  switch (frame.name) {
    case "todo_add": {
      const text = typeof args.text === "string" ? args.text.trim() : "";
      if (text === "") {
        toolResult(frame.id, "todo_add: `text` must be a non-empty string", true);
        return;
      }
      load();
      if (addItem(text)) toolResult(frame.id, `Added "${text}" (${summary()}).`);
      else toolResult(frame.id, `todo_add: could not save the list`, true);
      return;
    }
    case "todo_list": {
      load();
      const text =
        store.items.length === 0
          ? "The todo list is empty."
          : store.items.map((it) => `- [${it.done ? "x" : " "}] ${it.text}`).join("\n") + `\n(${summary()})`;
      toolResult(frame.id, text);
      return;
    }
    default:
      toolResult(frame.id, `unknown tool ${frame.name}`, true);
  }
}

// ---------------------------------------------------------------------------
// Start-up and the read loop
// ---------------------------------------------------------------------------

// Say hello first; registrations follow once hello_ack has told us where our
// data lives.
send({ type: "hello", name: NAME, version: VERSION, capabilities: ["commands", "tools", "panels"] });

function onHelloAck(frame) {
  const dir = frame.data_dir || frame.extension_dir || process.cwd();
  file = join(dir, "todos.json");
  log(`storing the list in ${file}`);
  load();

  send({ type: "register_command", name: "todo", description: "open the todo list" });
  send({ type: "register_command", name: "todo-add", description: "add an item: /todo-add <text>" });
  send({
    type: "register_tool",
    name: "todo_add",
    description: "Add an item to the user's persistent todo list.",
    schema: {
      type: "object",
      properties: { text: { type: "string", description: "The todo item, in a few words." } },
      required: ["text"],
    },
  });
  send({
    type: "register_tool",
    name: "todo_list",
    description: "Read the user's persistent todo list, with each item's done state.",
    schema: { type: "object", properties: {} },
  });
  send({ type: "ready" });
}

let acked = false;
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
      if (!acked) {
        acked = true;
        onHelloAck(frame);
      }
      break;
    case "command_invoked":
      onCommand(frame);
      break;
    case "tool_call":
      onToolCall(frame);
      break;
    case "panel_key":
      onPanelKey(frame);
      break;
    case "panel_close":
      if (frame.panel_id === PANEL_ID) panelOpen = false; // closed by the host
      break;
    case "panel_resize":
      break; // the list does not depend on the panel size
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
