// The Go template: standard library only, frames encoded the way zot's Go SDK
// encodes them (encoding/json, empty fields omitted). It runs as a built
// binary, as zot's Go examples do, so `go build` comes first.
import { readme } from './node.js';
import type { Template } from './template.js';

export const go: Template = ({ name, command, tool, binary }) => ({
  'extension.json':
    JSON.stringify({ name, version: '0.1.0', description: `The ${name} zot extension`, exec: `./${binary}`, language: 'go' }, null, 2) + '\n',
  'go.mod': `module ${name}\n\ngo 1.19\n`,
  '.gitignore': `/${binary}\n`,
  'main.go': `// Command ${binary} is a zot extension in Go (standard library only).
//
// The host starts this program and talks to it in newline-delimited JSON:
// one frame per line on stdin and stdout. stderr goes to the extension's log.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
)

// frame is every message in both directions; empty fields are left out.
type frame struct {
	Type         string          \`json:"type"\`
	ID           string          \`json:"id,omitempty"\`
	Name         string          \`json:"name,omitempty"\`
	Version      string          \`json:"version,omitempty"\`
	Capabilities []string        \`json:"capabilities,omitempty"\`
	Description  string          \`json:"description,omitempty"\`
	Schema       json.RawMessage \`json:"schema,omitempty"\`
	Args         json.RawMessage \`json:"args,omitempty"\`
	Action       string          \`json:"action,omitempty"\`
	Display      string          \`json:"display,omitempty"\`
	Content      []block         \`json:"content,omitempty"\`
	IsError      bool            \`json:"is_error,omitempty"\`
	ZotVersion   string          \`json:"zot_version,omitempty"\`
	Cwd          string          \`json:"cwd,omitempty"\`
}

type block struct {
	Type string \`json:"type"\`
	Text string \`json:"text,omitempty"\`
}

var out = struct {
	sync.Mutex
	enc *json.Encoder
}{enc: json.NewEncoder(os.Stdout)}

// send writes one frame as one line (Encode appends the newline).
func send(f frame) {
	out.Lock()
	defer out.Unlock()
	if err := out.enc.Encode(f); err != nil {
		fmt.Fprintf(os.Stderr, "[${name}] write: %v\\n", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[${name}] "+format+"\\n", args...)
}

func main() {
	send(frame{Type: "hello", Name: "${name}", Version: "0.1.0", Capabilities: []string{"commands", "tools"}})
	send(frame{Type: "register_command", Name: "${command}", Description: "Say hello (try: /${command} world)"})
	send(frame{Type: "register_tool", Name: "${tool}", Description: "Reverse the given text.",
		Schema: json.RawMessage(\`{"type":"object","properties":{"text":{"type":"string","description":"The text to reverse"}},"required":["text"]}\`)})
	send(frame{Type: "ready"})

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64*1024), 8*1024*1024)
	for in.Scan() {
		var f frame
		if err := json.Unmarshal(in.Bytes(), &f); err != nil {
			logf("not JSON: %v", err)
			continue
		}
		switch f.Type {
		case "hello_ack":
			logf("connected to zot %s, project %s", f.ZotVersion, f.Cwd)
		case "command_invoked":
			var who string
			_ = json.Unmarshal(f.Args, &who)
			if strings.TrimSpace(who) == "" {
				who = "world"
			}
			// Actions: display, prompt, insert, open_panel, noop; or an error.
			send(frame{Type: "command_response", ID: f.ID, Action: "display", Display: "Hello, " + who + "!"})
		case "tool_call":
			send(reverse(f))
		case "shutdown":
			send(frame{Type: "shutdown_ack"})
			return
		default:
			logf("ignoring a frame of type %s", f.Type)
		}
	}
}

func reverse(call frame) frame {
	var args struct {
		Text *string \`json:"text"\`
	}
	if err := json.Unmarshal(call.Args, &args); err != nil || args.Text == nil {
		return frame{Type: "tool_result", ID: call.ID, IsError: true, Content: []block{{Type: "text", Text: "text must be a string"}}}
	}
	runes := []rune(*args.Text)
	for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
		runes[i], runes[j] = runes[j], runes[i]
	}
	return frame{Type: "tool_result", ID: call.ID, Content: []block{{Type: "text", Text: string(runes)}}}
}
`,
  'README.md': readme(name, command, tool, 'Go 1.19 or later to build it: run `go build` here first (it makes `./' + binary + '`)', [
    'After editing `main.go`, run `go build` again, then *Zot: Restart Extension*.',
  ]),
});
