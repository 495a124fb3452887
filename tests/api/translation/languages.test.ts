import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { setLogLevel } from "../../../api/lib/log.ts";
import { LanguageList } from "../../../api/modules/translation/languages.ts";
import { createLibreTranslateProvider } from "../../../api/modules/translation/libretranslate.ts";
import { startTranslationServer, type TestTranslationServer } from "../../helpers/translation-server.ts";

const HOUR = 60 * 60 * 1000;

let server: TestTranslationServer;
beforeAll(async () => {
  // The failures below are the point: their log lines are not.
  setLogLevel("silent");
  server = await startTranslationServer();
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

/** A language list over the real LibreTranslate client, on a clock the test moves. */
function listWithClock() {
  const clock = { now: 1_000_000 };
  const provider = createLibreTranslateProvider(server.url, null);
  return { clock, list: new LanguageList(provider.name, () => provider.languages(), () => clock.now) };
}

describe("the provider's language list", () => {
  test("is asked once and kept for a day; a failed refresh keeps the last good list", async () => {
    const { clock, list } = listWithClock();
    expect((await list.get()).length).toBe(8);
    await list.get();
    expect(server.languageCalls).toBe(1);
    clock.now += 25 * HOUR;
    server.setMode("error");
    // Old: answered at once from what is kept, refreshed behind.
    expect((await list.get()).length).toBe(8);
    await Bun.sleep(50);
    expect((await list.get()).map((language) => language.code)).toContain("de");
  });

  test("with none fetched yet, a down provider answers no languages and is not asked again for a while", async () => {
    const { clock, list } = listWithClock();
    server.setMode("down");
    expect(await list.get()).toEqual([]);
    server.setMode("up");
    expect(await list.get()).toEqual([]);
    expect(server.languageCalls).toBe(0);
    clock.now += 31_000;
    expect((await list.get()).length).toBe(8);
  });
});
