/**
 * A translation server on 127.0.0.1 that speaks the LibreTranslate protocol (GET /languages,
 * POST /translate with q, source, target, format, api_key), for tests on machines without the
 * internet. Its "translation" is deterministic and visible: every text run gets the target's
 * marker in front ("[de] Was ist passiert?"), tags and attributes are kept, so a test can tell a
 * translated text from an original. It translates inside translate="no" spans too, as a careless
 * engine would: keeping those spans is Lantern's job, and this is what proves it.
 */

export interface TranslateRequestRecord {
  q: string[];
  source: string;
  target: string;
  format: string;
  apiKey: string | null;
}

export interface TestTranslationServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every /translate request, in arrival order. */
  received: TranslateRequestRecord[];
  /** How many times /languages was asked. */
  languageCalls: number;
  /** Every text received by /translate, flattened. */
  texts(): string[];
  /** 'up' answers; 'error' answers 500 with a LibreTranslate error body; 'down' answers 502 with a proxy's HTML page. */
  setMode(mode: "up" | "error" | "down"): void;
  /** Holds every answer this long (a slow provider). */
  setDelay(ms: number): void;
  reset(): void;
  stop(): Promise<void>;
}

export const TEST_LANGUAGES = [
  { code: "en", name: "English" },
  { code: "de", name: "German" },
  { code: "fr", name: "French" },
  { code: "es", name: "Spanish" },
  { code: "ar", name: "Arabic" },
  { code: "ja", name: "Japanese" },
  { code: "uk", name: "Ukrainian" },
  { code: "zh-Hans", name: "Chinese (Simplified)" },
];

/** What the test server makes of one plain text for a target language. */
export function fakeTranslation(text: string, target: string): string {
  return text.trim() === "" ? text : `[${target}] ${text}`;
}

/** Marks every text run between tags, leaving tags, attributes and entities as they are. */
export function fakeHtmlTranslation(html: string, target: string): string {
  return html.replace(/(^|>)([^<]+)(?=<|$)/g, (_match, open: string, run: string) => `${open}${run.trim() === "" ? run : fakeTranslation(run, target)}`);
}

export async function startTranslationServer(options: { apiKey?: string } = {}): Promise<TestTranslationServer> {
  const received: TranslateRequestRecord[] = [];
  let mode: "up" | "error" | "down" = "up";
  let delayMs = 0;
  let languageCalls = 0;
  const codes = TEST_LANGUAGES.map((language) => language.code);

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      // 'down': what a proxy in front of a stopped engine answers. (A provider that cannot be reached at
      // all is a TRANSLATION_URL on a closed port.)
      if (mode === "down") return new Response("<html><body>502 Bad Gateway</body></html>", { status: 502, headers: { "content-type": "text/html" } });
      if (delayMs > 0) await Bun.sleep(delayMs);
      if (mode === "error") return Response.json({ error: "Translation engine unavailable" }, { status: 500 });
      const url = new URL(request.url);
      if (request.method === "GET" && url.pathname === "/languages") {
        languageCalls += 1;
        return Response.json(TEST_LANGUAGES.map((language) => ({ ...language, targets: codes })));
      }
      if (request.method === "POST" && url.pathname === "/translate") return translate(request);
      return Response.json({ error: "Not Found" }, { status: 404 });
    },
  });

  async function translate(request: Request): Promise<Response> {
    const type = request.headers.get("content-type") ?? "";
    const body: Record<string, unknown> = type.includes("application/json")
      ? ((await request.json()) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(await request.text()));
    const q = body.q;
    const texts = Array.isArray(q) ? q.map(String) : typeof q === "string" ? [q] : null;
    const target = String(body.target ?? "");
    const source = String(body.source ?? "auto");
    const format = String(body.format ?? "text");
    if (!texts) return Response.json({ error: "Invalid request: missing q parameter" }, { status: 400 });
    if (!codes.includes(target)) return Response.json({ error: `${target} is not supported` }, { status: 400 });
    if (options.apiKey && body.api_key !== options.apiKey) return Response.json({ error: "Invalid API key" }, { status: 403 });
    received.push({ q: texts, source, target, format, apiKey: typeof body.api_key === "string" ? body.api_key : null });
    const translated = texts.map((text) => (format === "html" ? fakeHtmlTranslation(text, target) : fakeTranslation(text, target)));
    const detected = source === "auto" ? { detectedLanguage: Array.isArray(q) ? texts.map(() => ({ confidence: 90, language: "en" })) : { confidence: 90, language: "en" } } : {};
    return Response.json({ translatedText: Array.isArray(q) ? translated : translated[0], ...detected });
  }

  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    get languageCalls() {
      return languageCalls;
    },
    texts: () => received.flatMap((record) => record.q),
    setMode(next) {
      mode = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    reset() {
      received.length = 0;
      languageCalls = 0;
      mode = "up";
      delayMs = 0;
    },
    async stop() {
      await server.stop(true);
    },
  };
}
