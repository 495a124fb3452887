import { describe, expect, test } from "bun:test";
import { languageLabel } from "../../site/src/admin/ui/translation-languages.ts";

describe("how the console names a language", () => {
  test("by the provider's name for it, else the browser's own name, else the code alone", () => {
    expect(languageLabel("de", [{ code: "de", name: "Deutsch" }])).toBe("Deutsch (de)");
    expect(languageLabel("de", null)).toBe("Deutsch (de)");
    expect(languageLabel("fr", [])).toBe("français (fr)");
    expect(languageLabel("qq", null)).toBe("qq");
    expect(languageLabel("not a code", null)).toBe("not a code");
  });
});
