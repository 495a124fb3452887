import { describe, expect, test } from "bun:test";
import { THEME_GROUPS, THEME_KEYS } from "../../api/shared/theme.ts";
import {
  effectiveColour,
  normaliseHex,
  pickerColour,
  resetAllThemeKeys,
  resetThemeKey,
  setThemeColour,
  themeKeyLabel,
} from "../../site/src/admin/features/form-builder/theme-editor-helpers.ts";
import { THEME_DEFAULTS } from "../../site/src/forms/theme-defaults.ts";

describe("theme editor helpers", () => {
  test("labels read as words", () => {
    expect(themeKeyLabel("sectionTitleBackground")).toBe("Section title background");
    expect(themeKeyLabel("errorText")).toBe("Error text");
    expect(themeKeyLabel("uploadFormAttachFilesButtonForeground")).toBe("Upload form attach files button foreground");
    const labels = THEME_KEYS.map(themeKeyLabel);
    expect(new Set(labels).size).toBe(THEME_KEYS.length);
    expect(labels.every((label) => /^[A-Z][a-z]+( [a-z]+)*$/.test(label))).toBe(true);
  });

  test("every key sits in exactly one group", () => {
    const grouped = THEME_GROUPS.flatMap((group) => group.keys);
    expect([...grouped].sort()).toEqual([...THEME_KEYS].sort());
  });

  test("hex colours are accepted in the server's forms and nothing else", () => {
    expect(normaliseHex(" #1A2B3C ")).toBe("#1a2b3c");
    expect(normaliseHex("#abc")).toBe("#abc");
    expect(normaliseHex("#abcd")).toBe("#abcd");
    expect(normaliseHex("#11223344")).toBe("#11223344");
    for (const bad of ["red", "1a2b3c", "#12", "#12345", "#ggg", "rgb(1,2,3)", "url(x)", "var(--x)", "#123\u0000", "", "#".padEnd(1_000, "a")]) {
      expect(normaliseHex(bad)).toBeNull();
    }
  });

  test("the picker gets #rrggbb whatever the stored form", () => {
    expect(pickerColour("#ABC")).toBe("#aabbcc");
    expect(pickerColour("#abcd")).toBe("#aabbcc");
    expect(pickerColour("#11223344")).toBe("#112233");
    expect(pickerColour("#112233")).toBe("#112233");
  });

  test("set, reset one and reset all; unset keys show the palette default", () => {
    const theme = setThemeColour(setThemeColour({}, "errorText", "#000000"), "tooltipBackground", "#ffffff");
    expect(theme).toEqual({ errorText: "#000000", tooltipBackground: "#ffffff" });
    expect(effectiveColour(theme, "errorText")).toBe("#000000");
    const reset = resetThemeKey(theme, "errorText");
    expect(reset).toEqual({ tooltipBackground: "#ffffff" });
    expect("errorText" in reset).toBe(false);
    expect(effectiveColour(reset, "errorText")).toBe(THEME_DEFAULTS.errorText);
    expect(theme).toEqual({ errorText: "#000000", tooltipBackground: "#ffffff" });
    expect(resetAllThemeKeys()).toEqual({});
  });
});
