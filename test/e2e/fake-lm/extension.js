// A scripted language model for end-to-end chat tests. Its replies follow
// the conversation, so tests need no control channel:
//   the last user message says "CALL <tool> <json args>"  -> a tool call
//   the last user message carries tool results              -> "RESULT: <their text> DATA: <mime types>"
//   the last user message says "MULTI <tool> <tool>..."      -> one step calling each tool with {}
//   the last user message says "RECALL"                     -> "RECALLED: <every earlier tool result's text>"
//   the last user message says "AGENTCALL <name> <json>"    -> a call of the offered tool named <name> or
//                                                              ending in _<name> (agent mode prefixes MCP tools)
//   anything else                                           -> "ECHO: <the text>"
// Every request it receives is recorded for the tests (command zotFake.requests).
// So is every request VS Code's MCP client makes to a zot server (command
// zotFake.mcpTraffic): the client uses the extension host's global fetch.
'use strict';
const vscode = require('vscode');

const requests = [];
const mcpTraffic = [];

const realFetch = globalThis.fetch;
globalThis.fetch = function (input, init) {
  try {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (/^\/mcp(\/|$)/.test(url.pathname)) {
      let method;
      try {
        // VS Code sends each message as bytes.
        const body = init?.body;
        method = JSON.parse(typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : '').method;
      } catch {
        method = undefined;
      }
      const headers = new Headers(init?.headers);
      mcpTraffic.push({ path: url.pathname, http: init?.method ?? 'GET', method, session: headers.get('mcp-session-id')?.slice(0, 8), launch: headers.get('x-zot-launch')?.slice(0, 8) });
    }
  } catch {
    // Not a URL this records.
  }
  return realFetch.apply(this, arguments);
};

function describePart(p) {
  if (p instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: p.value };
  if (p instanceof vscode.LanguageModelToolCallPart) return { kind: 'call', name: p.name, callId: p.callId, input: p.input };
  if (p instanceof vscode.LanguageModelToolResultPart) return { kind: 'result', callId: p.callId, content: p.content.map(describePart) };
  if (p instanceof vscode.LanguageModelDataPart) return { kind: 'data', mimeType: p.mimeType, bytes: p.data.length };
  return { kind: 'other', text: String(p && p.value !== undefined ? p.value : JSON.stringify(p)) };
}

function activate(context) {
  let n = 0;
  context.subscriptions.push(
    vscode.commands.registerCommand('zotFake.requests', () => requests),
    vscode.commands.registerCommand('zotFake.mcpTraffic', () => mcpTraffic),
    // The extension host's log folder, where other extensions' logs are too.
    vscode.commands.registerCommand('zotFake.logsFolder', () => require('node:path').dirname(context.logUri.fsPath)),
    vscode.lm.registerLanguageModelChatProvider('zot-fake', {
      provideLanguageModelChatInformation: () => [{
        id: 'zot-fake-model', name: 'Zot Fake Model', family: 'zot-fake', version: '1.0.0',
        maxInputTokens: 100000, maxOutputTokens: 10000, capabilities: { toolCalling: true, imageInput: true },
      }],
      async provideLanguageModelChatResponse(model, messages, options, progress, token) {
        const described = messages.map((m) => ({ role: m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant', parts: m.content.map(describePart) }));
        requests.push({ messages: described, tools: (options.tools || []).map((t) => t.name) });
        const last = described[described.length - 1];
        const results = last.parts.filter((p) => p.kind === 'result');
        if (results.length) {
          const texts = results.flatMap((r) => r.content.filter((c) => c.kind === 'text').map((c) => c.text));
          const data = results.flatMap((r) => r.content.filter((c) => c.kind === 'data').map((c) => c.mimeType));
          progress.report(new vscode.LanguageModelTextPart(`RESULT: ${texts.join(' | ')}${data.length ? ` DATA: ${data.join(',')}` : ''}`));
          return;
        }
        const text = last.parts.filter((p) => p.kind === 'text').map((p) => p.text).join('');
        if (/\bRECALL\b/.test(text)) {
          const earlier = described.slice(0, -1).flatMap((m) => m.parts).filter((p) => p.kind === 'result');
          progress.report(new vscode.LanguageModelTextPart(`RECALLED: ${earlier.flatMap((r) => r.content.map((c) => c.text)).join(' | ')}`));
          return;
        }
        // Agent mode wraps the request in a longer prompt: take the last AGENTCALL in any user message.
        const userText = described.filter((m) => m.role === 'user').flatMap((m) => m.parts).filter((p) => p.kind === 'text').map((p) => p.text).join('\n');
        const agent = [...userText.matchAll(/AGENTCALL ([\w-]+)[ \t]*(\{[^\n]*?\})?(?=\s*<|\s*$)/gm)].at(-1);
        const offered = agent && (options.tools || []).find((t) => t.name === agent[1] || t.name.endsWith(`_${agent[1]}`));
        if (offered) {
          progress.report(new vscode.LanguageModelToolCallPart(`fake-call-${++n}`, offered.name, agent[2] ? JSON.parse(agent[2]) : {}));
          return;
        }
        const multi = /MULTI((?:\s+[\w-]+)+)/.exec(text);
        if (multi) {
          for (const name of multi[1].trim().split(/\s+/)) progress.report(new vscode.LanguageModelToolCallPart(`fake-call-${++n}`, name, {}));
          return;
        }
        const call = /CALL (\S+)\s*(\{.*\})?/s.exec(text);
        if (call) {
          progress.report(new vscode.LanguageModelToolCallPart(`fake-call-${++n}`, call[1], call[2] ? JSON.parse(call[2]) : {}));
          return;
        }
        progress.report(new vscode.LanguageModelTextPart(`ECHO: ${text}`));
      },
      async provideTokenCount(model, text) {
        return typeof text === 'string' ? Math.ceil(text.length / 4) : 10;
      },
    }),
  );
}

module.exports = { activate, deactivate() {} };
