// The part of VS Code's API that @zot's model loop (src/vscode/chat) uses:
// the language-model message and part classes, as plain data holders, so the
// loop runs in a host test against a real ZotHost and real extensions. The
// model itself is the test's own, scripted; nothing here decides anything.
'use strict';

class LanguageModelTextPart { constructor(value) { this.value = value; } }
class LanguageModelToolCallPart { constructor(callId, name, input) { this.callId = callId; this.name = name; this.input = input; } }
class LanguageModelToolResultPart { constructor(callId, content) { this.callId = callId; this.content = content; } }
class LanguageModelDataPart {
  constructor(data, mimeType) { this.data = data; this.mimeType = mimeType; }
  static image(data, mimeType) { return new LanguageModelDataPart(data, mimeType); }
  static json(value, mimeType = 'application/json') { return new LanguageModelDataPart(new TextEncoder().encode(JSON.stringify(value)), mimeType); }
}
/** As VS Code's: untrusted and without HTML unless said otherwise. */
class MarkdownString { constructor(value = '') { this.value = value; this.isTrusted = false; this.supportHtml = false; } }
class LanguageModelChatMessage {
  constructor(role, content) { this.role = role; this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content; }
  static User(content) { return new LanguageModelChatMessage('user', content); }
  static Assistant(content) { return new LanguageModelChatMessage('assistant', content); }
}
class LanguageModelError extends Error {
  constructor(message, code) { super(message); this.code = code; }
}
LanguageModelError.NoPermissions = { name: 'NoPermissions' };
LanguageModelError.NotFound = { name: 'NotFound' };
LanguageModelError.Blocked = { name: 'Blocked' };
class ChatRequestTurn {}
class ChatResponseTurn {}
class ChatResponseMarkdownPart { constructor(value) { this.value = { value }; } }

// The participant registers its handler here; a test takes it from `participants` and calls it.
const participants = new Map();
const chat = { createChatParticipant: (id, handler) => { const p = { id, handler, dispose() {} }; participants.set(id, p); return p; } };
const Uri = { joinPath: (base, ...parts) => ({ path: [base?.path ?? '', ...parts].join('/') }), file: (p) => ({ scheme: 'file', fsPath: p, path: p }) };

// The workspace: folders and settings a test sets, and file watchers over
// the real disk (node's recursive fs.watch; a name that exists after a
// rename was created, one that does not was deleted).
class RelativePattern { constructor(base, pattern) { this.baseUri = base.uri ?? base; this.pattern = pattern; } }
const fileWatchers = { made: 0, open: 0 };
const workspace = {
  workspaceFolders: undefined,
  /** Settings by "section.key". */
  settings: {},
  getConfiguration: (section) => ({ get: (key, fallback) => workspace.settings[`${section}.${key}`] ?? fallback }),
  createFileSystemWatcher(pattern) {
    const fs = require('node:fs');
    const path = require('node:path');
    const base = pattern.baseUri.fsPath;
    const listeners = { created: new Set(), changed: new Set(), deleted: new Set() };
    const w = fs.watch(base, { recursive: true }, (type, name) => {
      if (!name) return;
      const abs = path.join(base, String(name));
      const kind = type === 'change' ? 'changed' : fs.existsSync(abs) ? 'created' : 'deleted';
      for (const fn of listeners[kind]) fn(Uri.file(abs));
    });
    fileWatchers.made++;
    fileWatchers.open++;
    const on = (kind) => (fn) => { listeners[kind].add(fn); return { dispose: () => listeners[kind].delete(fn) }; };
    let open = true;
    return {
      onDidCreate: on('created'), onDidChange: on('changed'), onDidDelete: on('deleted'),
      dispose() { if (open) { open = false; fileWatchers.open--; w.close(); } },
    };
  },
};

module.exports = {
  chat, participants, Uri, workspace, RelativePattern, fileWatchers,
  LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart, LanguageModelDataPart,
  LanguageModelChatMessage, LanguageModelError, ChatRequestTurn, ChatResponseTurn, ChatResponseMarkdownPart, MarkdownString,
};
