import { UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import type { PubSub } from "../../lib/pubsub.ts";
import type { LiveScope } from "../conversations/list.ts";

/**
 * Live views (the sidebar badges, the dashboard tiles, the Conversations page's events) are open
 * in every console tab. Recomputing per tab on every event made each chat message cost two counts
 * per open tab, and with a few hundred tabs open chat delivery took seconds and sends timed out
 * (`bun run bench`, BENCH_CHAT_SIDEBARS). So subscribers that would run the very same computation
 * share a channel: one pubsub listener, one computation per burst of events, the result handed to
 * each of them.
 *
 * What makes two subscribers "the same" is the channel key, which callers build from the SQL text
 * and parameters of the query they would run (`queryKey`) and the organisations they listen to.
 * Two subscribers whose visibility differs (decision 009: a member's team, an owner's
 * organisation, the organisation a super admin names) produce different SQL, so a value computed
 * for one scope can never reach another. Channels live per pubsub, that is per instance: every
 * instance computes for its own subscribers, fed by the same LISTEN/NOTIFY events.
 */

/** Events are coalesced for this long after the first of a burst; one computation follows. */
export const LIVE_DEBOUNCE_MS = 150;

/** Anything drizzle can print as SQL: a select builder. */
interface Printable {
  toSQL(): { sql: string; params: unknown[] };
}

/** The SQL text and parameters of the queries a live value runs: equal keys mean equal results. */
export function queryKey(...queries: Printable[]): string {
  return JSON.stringify(queries.map((query) => query.toSQL()));
}

/** The organisations a channel hears, as part of its key; the order they were found in does not matter. */
export const scopeKey = (scope: LiveScope) => (scope.all ? "all" : [...scope.organisationIds].sort().join(","));

export interface LiveMember<E, R> {
  /** Runs the channel's computation on the events of a burst; every member of a key would compute the same. */
  compute(events: E[]): Promise<R>;
  deliver(result: R): void;
  /**
   * The member's stream ends with this error: a refusal (a UserError: access lost, the named
   * organisation gone), or any failure of the computation that was to give its first value.
   */
  fail(error: unknown): void;
  /**
   * Set for a member that has no value yet: it takes the result of the computation in flight (it
   * started at most one computation ago) or starts one at once, so tabs opening together, as after
   * a restart, cost one computation rather than one each.
   */
  wantsFirst?: boolean;
}

export interface ChannelSpec<E> {
  /** What is computed, for logs and for tests. */
  name: string;
  key: string;
  /**
   * Starts listening for events, once per channel; returns how to stop. `dedupe` names events
   * that count once per burst (all of a value's events are one; a conversation's are per report).
   */
  listen(emit: (dedupe: string, event: E) => void): () => void;
}

export interface ChannelInfo {
  name: string;
  members: number;
  computations: number;
}

class Channel<E, R> {
  readonly members = new Set<LiveMember<E, R>>();
  computations = 0;
  private readonly pending = new Map<string, E>();
  /** Members still without a first value. */
  private readonly waiting = new Set<LiveMember<E, R>>();
  /** Who gets the computation in flight; null while none is. */
  private audience: Set<LiveMember<E, R>> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private again = false;
  private closed = false;
  private readonly stopListening: () => void;

  constructor(readonly spec: ChannelSpec<E>) {
    this.stopListening = spec.listen((dedupe, event) => {
      this.pending.set(dedupe, event);
      this.schedule();
    });
  }

  add(member: LiveMember<E, R>) {
    this.members.add(member);
    if (!member.wantsFirst) return;
    this.waiting.add(member);
    // Events heard before now are in the computation in flight, or else earn one more after it.
    if (this.audience) this.audience.add(member);
    else {
      if (this.timer) clearTimeout(this.timer);
      void this.run();
    }
  }

  remove(member: LiveMember<E, R>): boolean {
    this.waiting.delete(member);
    return this.members.delete(member);
  }

  /** An event during a computation may not be in its result: it earns one more run after. */
  private schedule() {
    if (this.closed) return;
    if (this.audience) this.again = true;
    else this.timer ??= setTimeout(() => void this.run(), LIVE_DEBOUNCE_MS);
  }

  private async run() {
    this.timer = null;
    if (this.members.size === 0) return;
    // Members that join later without waiting already hold a value at least as fresh as this result.
    const audience = (this.audience = new Set(this.members));
    const events = [...this.pending.values()];
    this.pending.clear();
    this.computations += 1;
    const present = () => [...audience].filter((member) => this.members.has(member));
    try {
      const result = await [...audience][0]!.compute(events);
      for (const member of present()) {
        this.waiting.delete(member);
        member.deliver(result);
      }
    } catch (error) {
      const refused = error instanceof UserError;
      if (!refused) logError("Could not recompute a live value", error, { live: this.spec.name });
      for (const member of present()) if (refused || this.waiting.has(member)) member.fail(error);
    } finally {
      this.audience = null;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }

  close() {
    this.closed = true;
    this.stopListening();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}

/** The channels of one instance. */
export class LiveChannels {
  private readonly channels = new Map<string, Channel<unknown, unknown>>();

  /** Adds a member to the key's channel, opening it if need be; returns how to leave, which closes an emptied channel. */
  join<E, R>(spec: ChannelSpec<E>, member: LiveMember<E, R>): () => void {
    let channel = this.channels.get(spec.key) as Channel<E, R> | undefined;
    if (!channel) {
      channel = new Channel<E, R>(spec);
      this.channels.set(spec.key, channel as Channel<unknown, unknown>);
    }
    const joined = channel;
    joined.add(member);
    return () => {
      if (!joined.remove(member) || joined.members.size > 0) return;
      joined.close();
      if (this.channels.get(spec.key) === (joined as Channel<unknown, unknown>)) this.channels.delete(spec.key);
    };
  }

  /** The open channels: how many subscribers each serves and how often it has computed. */
  list(): ChannelInfo[] {
    return [...this.channels.values()].map((channel) => ({ name: channel.spec.name, members: channel.members.size, computations: channel.computations }));
  }
}

const channelsByPubSub = new WeakMap<PubSub, LiveChannels>();

/** The instance's channels: one set per pubsub, as each instance hears events through its own. */
export function liveChannelsOf(pubsub: PubSub): LiveChannels {
  let channels = channelsByPubSub.get(pubsub);
  if (!channels) channelsByPubSub.set(pubsub, (channels = new LiveChannels()));
  return channels;
}
