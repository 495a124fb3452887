import { describe, expect, test } from "bun:test";
import type { FormWidget } from "../../api/shared/form-definition.ts";
import { NEW_FORM_SETTINGS, copyWidgets, formInput, widgetsInput } from "../../site/src/admin/features/form-builder/builder-input.ts";
import { builderReducer, DEFAULT_PAGE_NAME, type BuilderAction, type BuilderState } from "../../site/src/admin/features/form-builder/builder-store.ts";

// The builder's reducer: every edit the screen can make, replayed without a browser.

const EMPTY: BuilderState = { name: "", widgets: [], savedIds: [], settings: NEW_FORM_SETTINGS, dirty: false, refusal: null };
const replay = (actions: BuilderAction[], from = EMPTY) => actions.reduce(builderReducer, from);

function widget(id: string, patch: Partial<FormWidget> = {}): FormWidget {
  return { id, type: "ShortText", title: id, required: false, tooltip: "", caption: "", answers: [], pageName: null, condition: null, ...patch };
}

/** A section, a choice question and a text question that shows when the choice is "Yes". */
function loaded(): BuilderState {
  const widgets = [
    widget("s1", { type: "Section", title: "About", pageName: "" }),
    widget("q1", { type: "Radio", answers: ["Yes", "No"] }),
    widget("q2", { condition: { id: "c1", matchType: "All", rules: [{ id: "r1", conditionWidgetID: "q1", conditionAnswer: "Yes" }] } }),
  ];
  return replay([{ type: "load", name: "Form", widgets, settings: NEW_FORM_SETTINGS, fromServer: true }]);
}

describe("the form builder's store", () => {
  test("a load from the server is saved work; any edit makes it unsaved", () => {
    const state = loaded();
    expect(state.dirty).toBe(false);
    expect(state.savedIds).toEqual(["s1", "q1", "q2"]);
    expect(state.widgets[0]!.pageName).toBeNull();
    expect(replay([{ type: "name", name: "Renamed" }], state).dirty).toBe(true);
    expect(replay([{ type: "settings", patch: { hasChat: false } }], state).dirty).toBe(true);
  });

  test("sections are numbered as they are added and page breaks get the default page name", () => {
    const state = replay([{ type: "add", widgetType: "Section" }, { type: "add", widgetType: "ShortText" }, { type: "add", widgetType: "Section", pageBreak: true }]);
    expect(state.widgets.map((w) => [w.type, w.title, w.pageName])).toEqual([
      ["Section", "New Section #1", null],
      ["ShortText", "", null],
      ["Section", "New Section #2", DEFAULT_PAGE_NAME],
    ]);
    expect(new Set(state.widgets.map((w) => w.id)).size).toBe(3);
  });

  test("a move that would put a condition above its question is refused and says why", () => {
    const state = replay([{ type: "move", from: 2, to: 0 }], loaded());
    expect(state.widgets.map((w) => w.id)).toEqual(["s1", "q1", "q2"]);
    expect(state.refusal).toContain('must refer to "q1" above it');
    expect(state.dirty).toBe(false);
    const moved = replay([{ type: "move", from: 0, to: 1 }], loaded());
    expect(moved.widgets.map((w) => w.id)).toEqual(["q1", "s1", "q2"]);
    expect(moved.refusal).toBeNull();
  });

  test("removing a question or its option drops the rules that referred to it", () => {
    expect(replay([{ type: "remove", id: "q1" }], loaded()).widgets.find((w) => w.id === "q2")?.condition).toBeNull();
    const trimmed = replay([{ type: "update", id: "q1", patch: { answers: ["No"] } }], loaded());
    expect(trimmed.widgets.find((w) => w.id === "q2")?.condition).toBeNull();
  });

  test("a duplicate sits after its original with new ids of its own", () => {
    const state = replay([{ type: "duplicate", id: "q2" }], loaded());
    const [original, copy] = state.widgets.slice(2);
    expect(copy!.id).not.toBe(original!.id);
    expect(copy!.title).toBe(original!.title);
    expect(copy!.condition!.rules[0]!.conditionWidgetID).toBe("q1");
    expect(copy!.condition!.id).not.toBe(original!.condition!.id);
  });

  test("the save input keeps server ids, leaves new ones out and names rule questions by position", () => {
    const state = replay([{ type: "add", widgetType: "Note" }], loaded());
    const input = widgetsInput(state);
    expect(input.map((w) => w.id)).toEqual(["s1", "q1", "q2", undefined]);
    expect(input[2]!.condition).toEqual({ matchType: "All", rules: [{ conditionWidgetIndex: 1, conditionAnswer: "Yes" }] });
    expect(input[0]!.pageName).toBe("");
  });

  test("a template's copy gets fresh ids, its conditions following the copies", () => {
    let next = 0;
    const copies = copyWidgets(loaded().widgets, () => `x${++next}`);
    const ids = copies.map((w) => w.id);
    expect(ids.some((id) => ["s1", "q1", "q2"].includes(id))).toBe(false);
    expect(copies[2]!.condition!.rules[0]!.conditionWidgetID).toBe(copies[1]!.id);
  });

  test("a new form's save carries the default acknowledgement; clearing it sends it empty, which turns it off", () => {
    const fresh = replay([{ type: "name", name: "New" }]);
    expect(formInput(fresh, {}).acknowledgementMessage).toStartWith("Thank you for your report. We have received it");
    const cleared = replay([{ type: "settings", patch: { acknowledgementMessage: "" } }], fresh);
    expect(formInput(cleared, {}).acknowledgementMessage).toBe("");
  });
});
