/**
 * `@zot`'s system prompt and zot's `before_agent_start` (docs/ZOT.md 3.6, 6):
 * the prompt is the standing model context of the running extensions; it is
 * asked about once per chat session, again after a model change or once
 * the running extensions changed (a reload, a restart), always from the
 * unchanged base; the chained answer is what the model receives from then
 * on. A block never refuses a request.
 */
import type { HostReader, TurnOptions } from '../../host/index.js';

/** Sessions whose prompt is kept; the oldest is forgotten first. */
const MAX_KEPT = 64;

interface Kept { key: string; prompt: string }

/** The prompt each chat session settled on, by session id. */
export class SystemPrompts {
  private readonly kept = new Map<string, Kept>();

  /**
   * For one request: the prompt to use now (undefined while it is being
   * asked for), the `startup` to hand the turn when it must be asked, and
   * where the turn's answer is kept.
   */
  forRequest(host: HostReader & { session: { id: string | undefined; cwd: string } }, sessionId: string | undefined, model: { vendor: string; id: string }): { prompt?: string; startup?: TurnOptions['startup']; keep(prompt: string): void } {
    const base = host.modelContext();
    // What makes zot ask again: another model, another set of running processes, another base.
    const key = `${model.vendor}/${model.id}\0${host.extensions.map((e) => e.pid ?? '').join(',')}\0${base}`;
    const id = sessionId ?? host.session.id ?? '';
    const kept = this.kept.get(id);
    const keep = (prompt: string): void => {
      this.kept.delete(id);
      this.kept.set(id, { key, prompt });
      if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    };
    if (kept?.key === key) return { prompt: kept.prompt, keep };
    const startup = { system_prompt: base, ...(host.session.id !== undefined && { session_id: host.session.id }), cwd: host.session.cwd, provider: model.vendor, model: model.id };
    return { startup, keep };
  }
}
