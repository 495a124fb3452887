import { describe, expect, test } from "bun:test";
import { UserError } from "../../../api/lib/errors.ts";
import { setLogLevel } from "../../../api/lib/log.ts";
import { LIVE_DEBOUNCE_MS, LiveChannels, type ChannelSpec, type LiveMember } from "../../../api/modules/reports/live-share.ts";

/**
 * The sharing itself, without a server: how many listeners a key opens, how many computations a
 * burst costs, who receives a result, and that nothing is left listening or ticking once the last
 * subscriber leaves.
 */

/** A fake event source: counts who listens, and fires events by hand. */
function source() {
  const emitters = new Set<(dedupe: string, event: string) => void>();
  let opened = 0;
  let closed = 0;
  const spec = (key: string): ChannelSpec<string> => ({
    name: "test",
    key,
    listen: (emit) => {
      opened += 1;
      emitters.add(emit);
      return () => {
        closed += 1;
        emitters.delete(emit);
      };
    },
  });
  const fire = (event: string, dedupe = event) => {
    for (const emit of emitters) emit(dedupe, event);
  };
  return { spec, fire, counts: () => ({ opened, closed, listening: emitters.size }) };
}

/** A member that records what it receives; `compute` is counted on the shared `computed` tally. */
function member(tally: { computed: number; batches: string[][] }, answer: (events: string[]) => Promise<string> = async (events) => events.join(","), wantsFirst = false) {
  const received: string[] = [];
  const failures: Error[] = [];
  const self: LiveMember<string, string> = {
    wantsFirst,
    compute: async (events) => {
      tally.computed += 1;
      tally.batches.push(events);
      return answer(events);
    },
    deliver: (result) => received.push(result),
    fail: (error) => failures.push(error as Error),
  };
  return { self, received, failures };
}

const settle = () => Bun.sleep(LIVE_DEBOUNCE_MS * 3);

describe("live channels", () => {
  test("subscribers of one key share one listener and one computation per burst, and each gets its result", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    const [a, b, c] = [member(tally), member(tally), member(tally)];
    const leaves = [a, b, c].map((m) => channels.join(events.spec("same"), m.self));
    expect(events.counts().opened).toBe(1);
    expect(channels.list()).toEqual([{ name: "test", members: 3, computations: 0 }]);

    for (let i = 0; i < 20; i += 1) events.fire("message");
    events.fire("report");
    await settle();
    expect(tally.computed).toBe(1);
    // Repeats within a burst count once, in the order they first came.
    expect(tally.batches).toEqual([["message", "report"]]);
    for (const m of [a, b, c]) expect(m.received).toEqual(["message,report"]);

    for (const leave of leaves) leave();
    expect(events.counts()).toEqual({ opened: 1, closed: 1, listening: 0 });
    expect(channels.list()).toEqual([]);
  });

  test("different keys never share: each computes for its own members only", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    const owner = member(tally, async () => "owner's value");
    const memberOfTeam = member(tally, async () => "member's value");
    const leaves = [channels.join(events.spec("owner"), owner.self), channels.join(events.spec("member"), memberOfTeam.self)];
    events.fire("message");
    await settle();
    expect(tally.computed).toBe(2);
    expect(owner.received).toEqual(["owner's value"]);
    expect(memberOfTeam.received).toEqual(["member's value"]);
    for (const leave of leaves) leave();
    expect(events.counts().listening).toBe(0);
  });

  test("leaving during a burst cancels its computation: no timer or listener is left behind", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    const only = member(tally);
    const leave = channels.join(events.spec("k"), only.self);
    events.fire("message");
    leave();
    await settle();
    expect(tally.computed).toBe(0);
    expect(only.received).toEqual([]);
    expect(events.counts()).toEqual({ opened: 1, closed: 1, listening: 0 });
    // Leaving twice is harmless, and the key opens afresh for a newcomer.
    leave();
    const again = member(tally);
    const leaveAgain = channels.join(events.spec("k"), again.self);
    expect(events.counts().opened).toBe(2);
    leaveAgain();
  });

  test("a member who left mid-computation gets nothing; one who stays gets the result", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    let release: () => void = () => {};
    const slow = (events: string[]) => new Promise<string>((resolve) => (release = () => resolve(events.join(","))));
    const [stays, goes] = [member(tally, slow), member(tally, slow)];
    channels.join(events.spec("k"), stays.self);
    const leave = channels.join(events.spec("k"), goes.self);
    events.fire("message");
    await Bun.sleep(LIVE_DEBOUNCE_MS * 2);
    expect(tally.computed).toBe(1);
    leave();
    release();
    await Bun.sleep(10);
    expect(stays.received).toEqual(["message"]);
    expect(goes.received).toEqual([]);
  });

  test("an event during a computation earns one more run after it", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    let release: () => void = () => {};
    const first = member(tally, (events) => (tally.computed === 1 ? new Promise((resolve) => (release = () => resolve(events.join(",")))) : Promise.resolve(events.join(","))));
    const leave = channels.join(events.spec("k"), first.self);
    events.fire("one");
    await Bun.sleep(LIVE_DEBOUNCE_MS * 2);
    events.fire("two");
    release();
    await settle();
    expect(tally.batches).toEqual([["one"], ["two"]]);
    expect(first.received).toEqual(["one", "two"]);
    leave();
  });

  test("a refusal (UserError) reaches every member; any other failure is only logged and the channel waits", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    let refusal: Error = new UserError("NOT_FOUND", "Organisation is not found");
    const failing = () => Promise.reject(refusal);
    const [a, b] = [member(tally, failing), member(tally, failing)];
    const leaves = [channels.join(events.spec("k"), a.self), channels.join(events.spec("k"), b.self)];
    events.fire("message");
    await settle();
    expect(a.failures.map((e) => e.message)).toEqual(["Organisation is not found"]);
    expect(b.failures.map((e) => e.message)).toEqual(["Organisation is not found"]);
    // As the test servers run (LOG_LEVEL silent): the expected log line is not the test's output.
    setLogLevel("silent");
    refusal = new Error("connection reset");
    events.fire("message");
    await settle();
    expect(a.failures).toHaveLength(1);
    expect(tally.computed).toBe(2);
    for (const leave of leaves) leave();
  });

  test("tabs opening together share one first computation: the one in flight, or one started at once", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    let release: () => void = () => {};
    let answer = "now";
    // Every member of a key computes the same: here, whatever `answer` says when released.
    const slow = () => new Promise<string>((resolve) => (release = () => resolve(answer)));
    const tabs = Array.from({ length: 5 }, () => member(tally, slow, true));
    const leaves = tabs.map((tab) => channels.join(events.spec("k"), tab.self));
    expect(tally.computed).toBe(1);
    release();
    await Bun.sleep(10);
    for (const tab of tabs) expect(tab.received).toEqual(["now"]);
    // A tab opening while nothing is in flight starts one at once, without waiting for a window;
    // the others get its result only if it changed, which is theirs to judge (here they record all).
    answer = "later";
    const late = member(tally, slow, true);
    leaves.push(channels.join(events.spec("k"), late.self));
    expect(tally.computed).toBe(2);
    release();
    await Bun.sleep(10);
    expect(late.received).toEqual(["later"]);
    for (const leave of leaves) leave();
  });

  test("a failed first computation ends the tabs still waiting for it; tabs that have a value keep it", async () => {
    const channels = new LiveChannels();
    const events = source();
    const tally = { computed: 0, batches: [] as string[][] };
    let failure: Error | null = null;
    const compute = async () => {
      if (failure) throw failure;
      return "value";
    };
    const settled = member(tally, compute);
    const leaves = [channels.join(events.spec("k"), settled.self)];
    setLogLevel("silent");
    failure = new Error("connection reset");
    const waiting = member(tally, compute, true);
    leaves.push(channels.join(events.spec("k"), waiting.self));
    await Bun.sleep(10);
    expect(waiting.failures.map((e) => e.message)).toEqual(["connection reset"]);
    expect(settled.failures).toEqual([]);
    for (const leave of leaves) leave();
  });
});
