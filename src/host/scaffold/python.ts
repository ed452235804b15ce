// The Python template: standard library only, as in zot's own quick start.
import { manifest, readme } from './node.js';
import type { Template } from './template.js';

export const python: Template = ({ name, command, tool }) => ({
  'extension.json': manifest({ name, exec: 'python3', args: ['main.py'], language: 'python' }),
  'main.py': `#!/usr/bin/env python3
"""${name}: a zot extension in Python (standard library only).

The host starts this program and talks to it in newline-delimited JSON: one
frame per line on stdin and stdout. stderr goes to the extension's log.
"""
import json
import sys


def send(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write("[${name}] " + text + "\\n")
    sys.stderr.flush()


def reverse(args):
    text = args.get("text")
    if not isinstance(text, str):
        return {"is_error": True, "content": [{"type": "text", "text": "text must be a string"}]}
    return {"content": [{"type": "text", "text": text[::-1]}]}


send({"type": "hello", "name": "${name}", "version": "0.1.0", "capabilities": ["commands", "tools"]})
send({"type": "register_command", "name": "${command}", "description": "Say hello (try: /${command} world)"})
send({
    "type": "register_tool",
    "name": "${tool}",
    "description": "Reverse the given text.",
    "schema": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text to reverse"}},
        "required": ["text"],
    },
})
send({"type": "ready"})

for line in sys.stdin:
    try:
        frame = json.loads(line)
    except ValueError:
        log("not JSON: " + line[:200])
        continue
    kind = frame.get("type")
    if kind == "hello_ack":
        log("connected to zot %s, project %s" % (frame.get("zot_version"), frame.get("cwd")))
    elif kind == "command_invoked":
        # Actions: display, prompt, insert, open_panel, noop; or an error.
        who = frame.get("args") or "world"
        send({"type": "command_response", "id": frame["id"], "action": "display", "display": "Hello, %s!" % who})
    elif kind == "tool_call":
        send(dict({"type": "tool_result", "id": frame["id"]}, **reverse(frame.get("args") or {})))
    elif kind == "shutdown":
        send({"type": "shutdown_ack"})
        break
    else:
        log("ignoring a frame of type %s" % kind)
`,
  'README.md': readme(name, command, tool, 'Python 3 (`python3` on PATH)', [
    'Edit `main.py`, then run *Zot: Restart Extension*.',
  ]),
});
