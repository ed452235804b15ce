/**
 * terva's requests (docs/TERVA.md 16.9 to 16.12) and the services that answer
 * them. The host answers every request at once: with the front end's
 * service when it has one, else with section 20's "not supported" frame.
 * The front end brings the services (VS Code: SecretStorage, its language
 * model tools; the CLI: a private file); this file holds the checks that do
 * not depend on which one: key and value bounds, no recursion into zot's own
 * tools, the session list's project, and what a failing service says.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { notSupported, type AnswerFromHost, type ContentBlock, type ImageBlock, type TextBlock, type JsonObject, type RequestFromExt, type SessionEntry, type SessionMessage } from '../../protocol/index.js';
import type { FoundExtension } from '../discovery/discover.js';
import type { ExtensionRef } from '../port.js';

/** The extension a request comes from, as the services see it: a view of it has these and more. */
export interface Requester extends ExtensionRef { readonly found: Readonly<FoundExtension> }

/** A secret key longer than this is refused. */
const MAX_SECRET_KEY_CHARS = 256;
/** A secret value larger than this (UTF-8 bytes) is refused. */
const MAX_SECRET_VALUE_BYTES = 64 * 1024;

/**
 * One extension's secrets: the store scopes them by the manifest name it is
 * given (terva: `ext:<name>`), so one extension never reaches another's.
 */
export interface SecretStore {
  /** Where the secrets live, in a few words, for diagnostics. */
  readonly where: string;
  get(extension: string, key: string): Promise<string | undefined>;
  set(extension: string, key: string, value: string): Promise<void>;
  delete(extension: string, key: string): Promise<void>;
  /** Its key names, sorted. */
  keys(extension: string): Promise<string[]>;
  /** Forgets every secret of that extension; returns how many there were. */
  forget(extension: string): Promise<number>;
}

/** What a host tool call asks (docs/TERVA.md 16.9). */
export interface HostToolRequest { extension: Requester; name: string; args: JsonObject; silent: boolean }
export interface HostToolAnswer { content: ContentBlock[]; isError: boolean }

/** Runs a tool of the front end's for an extension, with no more permission than the model would have. */
export interface HostTools {
  call(request: HostToolRequest, token: CancellationToken): Promise<HostToolAnswer>;
}

/** This host's own transcripts, for `list_sessions` and `read_session`. */
export interface SessionStore {
  /** The active project's id, as `session_start` names it. */
  projectId(): string | undefined;
  list(): Promise<SessionEntry[]>;
  /** undefined: unknown or not this project's. */
  read(sessionId: string): Promise<SessionMessage[] | undefined>;
}

/** The services a front end brings; each one absent is answered with section 20's frame. */
export interface TervaServices {
  secrets?: SecretStore;
  hostTools?: HostTools;
  sessions?: SessionStore;
}

export interface AnswerContext {
  services: TervaServices;
  /** Whether a tool name is one of zot's own (any extension's), by whatever name a bridge gives it. */
  isZotTool(name: string): boolean;
  /** Cancelled when the extension's connection goes. */
  token: CancellationToken;
  /**
   * The door's guards for a host tool call, as for every other call: the
   * `tool_call` event and intercepts (`origin_extension` the caller), then
   * the arguments the guards leave, or why the call must not run.
   */
  guard(name: string, args: JsonObject, origin: string): Promise<GuardedHostCall>;
}

/** A host tool call past its guards: the args to run and how to report its end, or why it must not run. */
export type GuardedHostCall = { run: true; args: JsonObject; ended(isError: boolean, content: readonly ContentBlock[]): void } | { run: false; reason: string };

/** The answer to one request: the service's, or section 20's when the front end has none. Never rejects. */
export async function answerRequest(ext: Requester, frame: RequestFromExt, ctx: AnswerContext): Promise<AnswerFromHost> {
  try {
    return await answer(ext, frame, ctx);
  } catch (err) {
    return failed(frame, `the host could not answer: ${(err as Error)?.message ?? String(err)}`);
  }
}

async function answer(ext: Requester, frame: RequestFromExt, ctx: AnswerContext): Promise<AnswerFromHost> {
  const { secrets, hostTools, sessions } = ctx.services;
  const id = frame.id;
  switch (frame.type) {
    case 'secret_set':
    case 'secret_get':
    case 'secret_delete': {
      if (!secrets) return notSupported(frame.type, id);
      const bad = badKey(frame.key);
      if (bad) return failed(frame, bad);
      if (frame.type === 'secret_get') {
        const value = await secrets.get(ext.name, frame.key);
        return value === undefined || value === '' ? { type: 'secret_value', id, found: false } : { type: 'secret_value', id, found: true, value };
      }
      // As terva: an empty value deletes the key; deleting a missing key is no error.
      if (frame.type === 'secret_delete' || frame.value === '') await secrets.delete(ext.name, frame.key);
      else {
        if (Buffer.byteLength(frame.value, 'utf8') > MAX_SECRET_VALUE_BYTES) return failed(frame, `the value is over ${MAX_SECRET_VALUE_BYTES} bytes`);
        await secrets.set(ext.name, frame.key, frame.value);
      }
      return { type: 'secret_ack', id };
    }
    case 'secret_list': {
      if (!secrets) return notSupported(frame.type, id);
      const keys = await secrets.keys(ext.name);
      return { type: 'secret_keys', id, keys: keys.length ? keys : null };
    }
    case 'list_sessions': {
      if (!sessions) return notSupported(frame.type, id);
      // A project id other than the active one's yields nothing.
      if (frame.project_id && frame.project_id !== sessions.projectId()) return { type: 'session_list', id, sessions: null };
      const list = await sessions.list();
      return { type: 'session_list', id, sessions: list.length ? list : null };
    }
    case 'read_session': {
      if (!sessions) return notSupported(frame.type, id);
      const messages = await sessions.read(frame.session_id);
      return messages === undefined ? notSupported(frame.type, id) : { type: 'session_data', id, messages: messages.length ? messages : null };
    }
    case 'host_tool_call': {
      if (!hostTools) return notSupported(frame.type, id);
      // No recursion: an extension never reaches another extension's tool (or its own) through the host.
      if (ctx.isZotTool(frame.name)) return toolError(id, `"${frame.name}" is a zot extension's tool; host tool calls reach only the host's own tools`);
      // The guards are asked as for any call, the caller named as its origin: a guard that refuses rm -rf refuses it here too.
      const cleared = await ctx.guard(frame.name, frame.args ?? {}, ext.name);
      if (!cleared.run) return toolError(id, cleared.reason);
      const got = await hostTools.call({ extension: ext, name: frame.name, args: cleared.args, silent: frame.silent === true }, ctx.token);
      cleared.ended(got.isError, got.content);
      const content = got.content.map(toWireBlock);
      return { type: 'host_tool_result', id, content: content.length ? content : [{ type: 'text', text: '' }], ...(got.isError && { is_error: true }) };
    }
  }
}

/** What a key may be: terva writes down no syntax; an empty or huge one is answered with an error here. */
function badKey(key: string): string | undefined {
  if (key === '') return 'the key is empty';
  if (key.length > MAX_SECRET_KEY_CHARS) return `the key is longer than ${MAX_SECRET_KEY_CHARS} characters`;
  return undefined;
}

/** The request's own answer frame, carrying `message` as its error. */
function failed(frame: RequestFromExt, message: string): AnswerFromHost {
  const id = frame.id;
  switch (frame.type) {
    case 'secret_set':
    case 'secret_delete':
      return { type: 'secret_ack', id, error: message };
    case 'secret_get':
      return { type: 'secret_value', id, found: false, error: message };
    case 'secret_list':
      return { type: 'secret_keys', id, keys: null, error: message };
    case 'host_tool_call':
      return toolError(id, message);
    case 'list_sessions':
    case 'read_session':
      // These answers carry no error field: section 20's frame is the failure.
      return notSupported(frame.type, id);
  }
}

function toolError(id: string, text: string): AnswerFromHost {
  return { type: 'host_tool_result', id, content: [{ type: 'text', text }], is_error: true };
}

function toWireBlock(b: ContentBlock): TextBlock | ImageBlock {
  if (b.type === 'text' || b.type === 'image') return b;
  return { type: 'text', text: `[a "${b.other_type}" part the extension cannot be sent]` };
}
