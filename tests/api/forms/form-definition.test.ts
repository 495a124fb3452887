import { describe, expect, test } from "bun:test";
import {
  checkPageAnswers,
  derivePages,
  displayDate,
  isIsoDate,
  pageHasContent,
  publishProblems,
  visibleWidgetIds,
  widgetListProblems,
  type FormWidget,
} from "../../../api/shared/form-definition.ts";

const widget = (id: string, type: FormWidget["type"], extra: Partial<FormWidget> = {}): FormWidget => ({
  id,
  type,
  title: id,
  required: false,
  tooltip: "",
  caption: "",
  answers: [],
  pageName: null,
  condition: null,
  ...extra,
});

const FORM: FormWidget[] = [
  widget("s1", "Section", { pageName: "Start" }),
  widget("involved", "Radio", { required: true, answers: ["Yes", "No"] }),
  widget("how", "LongText", { required: true, condition: { id: "c1", matchType: "All", rules: [{ id: "r1", conditionWidgetID: "involved", conditionAnswer: "Yes" }] } }),
  widget("s2", "Section", { pageName: "Details" }),
  widget("kinds", "Checkbox", { required: true, answers: ["Fraud", "Bribery", "Bullying"] }),
  widget("amount", "ShortText", {
    condition: {
      id: "c2",
      matchType: "Any",
      rules: [
        { id: "r2", conditionWidgetID: "kinds", conditionAnswer: "Fraud" },
        { id: "r3", conditionWidgetID: "kinds", conditionAnswer: "Bribery" },
      ],
    },
  }),
  widget("s2b", "Note"),
  widget("s3", "Section", { pageName: "Follow-up", condition: { id: "c3", matchType: "All", rules: [{ id: "r4", conditionWidgetID: "how", conditionAnswer: "never" }] } }),
  widget("when", "Date", { required: true }),
];

describe("pages", () => {
  test("sections with a page name break pages; the first page is Summary", () => {
    const pages = derivePages(FORM);
    expect(pages.map((p) => [p.name, p.widgets.map((w) => w.id)])).toEqual([
      ["Summary", ["s1", "involved", "how"]],
      ["Details", ["s2", "kinds", "amount", "s2b"]],
      ["Follow-up", ["s3", "when"]],
    ]);
  });

  test("a section without a page name stays on the current page", () => {
    const pages = derivePages([widget("a", "Section", { pageName: "A" }), widget("q", "ShortText"), widget("b", "Section"), widget("r", "ShortText")]);
    expect(pages).toHaveLength(1);
  });
});

describe("conditions", () => {
  test("All needs every rule, Any needs one; hidden sections hide their widgets", () => {
    expect(visibleWidgetIds(FORM, { involved: ["No"] }).has("how")).toBe(false);
    expect(visibleWidgetIds(FORM, { involved: ["Yes"] }).has("how")).toBe(true);
    expect(visibleWidgetIds(FORM, { kinds: ["Bullying"] }).has("amount")).toBe(false);
    expect(visibleWidgetIds(FORM, { kinds: ["Bullying", "Bribery"] }).has("amount")).toBe(true);
    const visible = visibleWidgetIds(FORM, {});
    expect(visible.has("s3")).toBe(false);
    expect(visible.has("when")).toBe(false);
    expect(pageHasContent(derivePages(FORM)[2]!, visible)).toBe(false);
  });

  test("a hidden widget's answer does not satisfy later conditions", () => {
    // 'how' answered "never" but hidden (involved = No): the Follow-up section stays hidden.
    expect(visibleWidgetIds(FORM, { involved: ["No"], how: ["never"] }).has("s3")).toBe(false);
    expect(visibleWidgetIds(FORM, { involved: ["Yes"], how: ["never"] }).has("s3")).toBe(true);
  });
});

describe("answers", () => {
  const page = (index: number) => derivePages(FORM)[index]!.widgets;

  test("required answers, checkbox groups and hidden widgets", () => {
    const answers = { involved: ["No"], how: ["should be dropped"] };
    const result = checkPageAnswers(page(0), visibleWidgetIds(FORM, answers), answers);
    expect(result.problems).toEqual([]);
    expect(result.kept).toEqual({ involved: ["No"] });
    const missing = checkPageAnswers(page(1), visibleWidgetIds(FORM, {}), { kinds: [] });
    expect(missing.problems).toEqual([{ widgetId: "kinds", message: "Required" }]);
  });

  test("options must be the widget's own; checkbox answers keep the option order", () => {
    const bad = checkPageAnswers(page(0), visibleWidgetIds(FORM, { involved: ["Maybe"] }), { involved: ["Maybe"] });
    expect(bad.problems[0]?.message).toBe("Choose one of the options");
    const ok = checkPageAnswers(page(1), visibleWidgetIds(FORM, {}), { kinds: ["Bullying", "Fraud"] });
    expect(ok.kept.kinds).toEqual(["Fraud", "Bullying"]);
    const twice = checkPageAnswers(page(0), visibleWidgetIds(FORM, {}), { involved: ["Yes", "No"] });
    expect(twice.problems[0]?.message).toBe("Only one answer is allowed");
  });

  test("dates are real YYYY-MM-DD dates and show as dd/MM/yyyy", () => {
    expect(isIsoDate("2026-02-28")).toBe(true);
    expect(isIsoDate("2026-02-30")).toBe(false);
    expect(isIsoDate("28/02/2026")).toBe(false);
    expect(displayDate("2026-02-28")).toBe("28/02/2026");
    const answers = { involved: ["Yes"], how: ["never"], when: ["2026-13-01"] };
    const result = checkPageAnswers(page(2), visibleWidgetIds(FORM, answers), answers);
    expect(result.problems).toEqual([{ widgetId: "when", message: "Enter a valid date" }]);
  });
});

describe("widget list rules", () => {
  test("at least two widgets, no adjacent sections, no trailing section, conditions refer backwards", () => {
    expect(widgetListProblems(FORM)).toEqual([]);
    expect(widgetListProblems([widget("a", "Section")])).toContain("A form needs at least two widgets");
    expect(widgetListProblems([widget("a", "Section"), widget("b", "Section"), widget("c", "Note")])).toContain("Two sections cannot be next to each other");
    expect(widgetListProblems([widget("a", "Note"), widget("b", "Section")])).toContain("The last widget cannot be a section");
    const forward = [widget("q", "ShortText", { condition: { id: "c", matchType: "All", rules: [{ id: "r", conditionWidgetID: "later", conditionAnswer: "x" }] } }), widget("later", "Radio", { answers: ["x"] })];
    expect(widgetListProblems(forward)[0]).toContain("earlier question");
    expect(publishProblems([widget("a", "Note"), widget("b", "Note")])).toEqual(["Add at least one section before publishing", "Add at least one question before publishing"]);
  });
});
