import { describe, expect, test } from "bun:test";
import { parseReportFormPage, parseReporterForm, REPORT_FORM_NOT_FOUND } from "../../site/src/islands/report-flow/report-data.ts";

// The report page reads the form the server injects before the first step shows. A form that does
// not have the expected shape must become the not-found message, never a half-drawn form.

const widget = { id: "w1", type: "ShortText" as const, title: "What happened?", required: true, tooltip: null, caption: null, answers: null, pageName: "Incident", condition: null };
const form = { id: "f1", buildID: "b1", name: "Workplace Report", secured: false, welcomeMessageTitle: null, showLogo: true, theme: { primary: "#112233" }, widgets: [widget] };
const organisation = { id: "o1", name: "Demo", slug: "demo", logoUrl: null, fontFamily: "Roboto", showLogoOnReportForms: true };

describe("the report page's injected data", () => {
  test("a form reads with missing and null texts, flags and lists as empty", () => {
    const page = parseReportFormPage({ organisation, form });
    if ("error" in page) throw new Error(page.error);
    expect(page.organisation).toEqual(organisation as typeof page.organisation);
    expect(page.form).toMatchObject({ id: "f1", buildID: "b1", welcomeMessageTitle: "", finishMessageContent: "", unlocked: false, allowFileUploads: false, allowedFileTypes: [], theme: { primary: "#112233" } });
    expect(page.form.widgets).toEqual([{ ...widget, tooltip: "", caption: "", answers: [] }]);
  });

  test("keys the page does not know are dropped", () => {
    const page = parseReportFormPage({ organisation: { ...organisation, secret: 1 }, form: { ...form, extra: true } });
    if ("error" in page) throw new Error(page.error);
    expect("secret" in page.organisation).toBe(false);
    expect("extra" in page.form).toBe(false);
  });

  test("an unknown font family falls back to the default rather than breaking the page", () => {
    const page = parseReportFormPage({ organisation: { ...organisation, fontFamily: "Comic Sans" }, form });
    expect("error" in page ? page.error : page.organisation.fontFamily).toBe("Helvetica Neue");
  });

  test("conditions keep their rules; a wrong match type or widget type is not a form", () => {
    const condition = { id: "c1", matchType: "Any" as const, rules: [{ id: "r1", conditionWidgetID: "w0", conditionAnswer: "Yes" }] };
    expect(parseReporterForm({ ...form, widgets: [{ ...widget, condition }] })?.widgets[0]?.condition).toEqual(condition);
    expect(parseReporterForm({ ...form, widgets: [{ ...widget, condition: { ...condition, matchType: "Some" } }] })).toBeUndefined();
    expect(parseReporterForm({ ...form, widgets: [{ ...widget, type: "Script" }] })).toBeUndefined();
  });

  test("the placeholder, the server's error and anything else show a message instead of a form", () => {
    expect(parseReportFormPage(null)).toEqual({ error: REPORT_FORM_NOT_FOUND });
    expect(parseReportFormPage({ organisation, error: "Gone" })).toEqual({ error: "Gone" });
    expect(parseReportFormPage({ organisation, form: { ...form, id: 7 } })).toEqual({ error: REPORT_FORM_NOT_FOUND });
    expect(parseReportFormPage({ organisation, form: { ...form, secured: "yes" } })).toEqual({ error: REPORT_FORM_NOT_FOUND });
    expect(parseReportFormPage("form")).toEqual({ error: REPORT_FORM_NOT_FOUND });
  });
});
