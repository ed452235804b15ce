/**
 * One extension's side of terva's wire beyond zot's level 1, apart from its
 * life (runtime.ts): what its notices said, what it sent that this host has
 * no place for (said once), its requests answered off the reading loop, and
 * the settings it was last told, so that config_update goes out once per real
 * change. Reset at each launch; what the notices said goes with the connection.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { AnswerFromHost, FrameFromHost, JsonObject, NoticeFromExt, RequestFromExt } from '../../protocol/index.js';
import type { LogLevel } from '../port.js';
import { TervaState, type TervaChange } from './notices.js';

/** What the link needs of its extension's runtime. */
export interface TervaPort {
  log(line: string, level: LogLevel): void;
  /** What a notice changed, for the front ends; a withdrawal changes the registry too. */
  changed(what: TervaChange): void;
  /** The names of the tools it has registered now (withdrawal covers only those). */
  toolNames(): Iterable<string>;
  /** Its resolved settings, or undefined when it declares none. */
  settings(): JsonObject | undefined;
  answer(frame: RequestFromExt, token: CancellationToken): Promise<AnswerFromHost>;
}

/** Where an answer goes: the connection that asked, while it is the live one. */
export interface AnswerRoute {
  readonly requestsGone: CancellationToken;
  live(): boolean;
  send(frame: FrameFromHost): void;
}

export class TervaLink {
  readonly state = new TervaState();
  /** Frames it sent that this host has no place for, one line each, said once; never problems. */
  readonly notes: string[] = [];
  /** The settings it was last told (hello_ack's `config`, then config_update), as JSON. */
  private told: string | undefined;

  constructor(private readonly port: TervaPort) {}

  /** A new launch: nothing said yet, nothing told. */
  reset(): void {
    this.notes.length = 0;
    this.told = undefined;
    this.forget();
  }

  /** Forgets what its notices said (a new launch, a lost connection) and tells the front ends. */
  forget(): void {
    for (const what of this.state.clear()) this.port.changed(what);
  }

  /** One of terva's notices: kept, and the front ends told what changed. */
  notice(frame: NoticeFromExt): void {
    if (frame.type === 'register_connector') this.noteOnce('offered a chat connector (register_connector); this host has no chat connectors, so it never opens a chat session');
    if (frame.type === 'chat' || frame.type === 'chat_down') this.noteOnce(`"${frame.type}" frames are dropped: this host opened no chat session`);
    const what = this.state.apply(frame, this.port.toolNames(), (line) => this.port.log(line, 'info'));
    if (what) this.port.changed(what);
  }

  /** One of terva's requests: answered off the reading loop, at once, and only to the connection that asked. */
  request(route: AnswerRoute, frame: RequestFromExt): void {
    void this.port.answer(frame, route.requestsGone).then((a) => { if (route.live()) route.send(a); });
  }

  /** The settings hello_ack carries, remembered as told. */
  helloSettings(): JsonObject | undefined {
    const config = this.port.settings();
    this.told = config && JSON.stringify(config);
    return config;
  }

  /** The settings a subscriber should be told now, or undefined when they did not change since it was last told. */
  changedSettings(): JsonObject | undefined {
    const config = this.port.settings();
    const json = config && JSON.stringify(config);
    if (!config || json === this.told) return undefined;
    this.told = json;
    return config;
  }

  private noteOnce(note: string): void {
    if (this.notes.includes(note)) return;
    this.notes.push(note);
    this.port.log(note, 'info');
  }
}
