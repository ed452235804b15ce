#!/usr/bin/env python3
"""word-count: a zot extension in Python, standard library only.

It registers a command, /wc <text>, that shows the counts, and a tool,
word_count, that the model can call. Frames are JSON lines on stdin and
stdout; anything for humans goes to stderr, which the host keeps in the log.
"""
import json
import sys


def send(frame):
    sys.stdout.write(json.dumps(frame) + "\n")
    sys.stdout.flush()


def counts(text):
    return {"words": len(text.split()), "lines": len(text.splitlines()) or (1 if text else 0), "characters": len(text)}


def describe(c):
    return f"{c['words']} words, {c['lines']} lines, {c['characters']} characters"


send({"type": "hello", "name": "word-count", "version": "1.0.0", "capabilities": ["commands", "tools"]})
send({"type": "register_command", "name": "wc", "description": "count words, lines and characters of the text after /wc"})
send({
    "type": "register_tool",
    "name": "word_count",
    "description": "Count the words, lines and characters of a text.",
    "schema": {"type": "object", "properties": {"text": {"type": "string", "description": "the text to count"}}, "required": ["text"]},
})
send({"type": "ready"})

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    try:
        frame = json.loads(line)
    except json.JSONDecodeError as err:
        print(f"word-count: ignoring a line that is not JSON: {err}", file=sys.stderr)
        continue
    kind = frame.get("type")
    if kind == "hello_ack":
        print(f"word-count: connected to {frame.get('zot_version')} in {frame.get('cwd')}", file=sys.stderr)
    elif kind == "command_invoked":
        text = frame.get("args", "")
        if not text:
            send({"type": "command_response", "id": frame["id"], "action": "noop", "error": "usage: /wc <text>"})
        else:
            send({"type": "command_response", "id": frame["id"], "action": "display", "display": describe(counts(text))})
    elif kind == "tool_call":
        args = frame.get("args") or {}
        text = args.get("text")
        if not isinstance(text, str):
            send({"type": "tool_result", "id": frame["id"], "is_error": True, "content": [{"type": "text", "text": "word_count needs a string argument \"text\""}]})
        else:
            c = counts(text)
            send({"type": "tool_result", "id": frame["id"], "content": [{"type": "text", "text": json.dumps(c)}]})
    elif kind == "shutdown":
        send({"type": "shutdown_ack"})
        break
