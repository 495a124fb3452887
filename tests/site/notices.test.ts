import { afterEach, describe, expect, test } from "bun:test";
import { $notices, clearNotices, notify } from "../../site/src/admin/ui/notice-store.ts";

afterEach(() => clearNotices());

describe("notices", () => {
  test("the same message twice in a row (a logo upload, then Save) shows once", () => {
    notify("Organisation has been updated successfully");
    notify("Organisation has been updated successfully");
    expect($notices.get().map((notice) => notice.text)).toEqual(["Organisation has been updated successfully"]);
  });

  test("different messages, or the same words as a warning, each show", () => {
    notify("Successfully archived tag");
    notify("Successfully unarchived tag");
    notify("Successfully archived tag", "warning");
    expect($notices.get().map((notice) => `${notice.tone}:${notice.text}`)).toEqual(["positive:Successfully archived tag", "positive:Successfully unarchived tag", "warning:Successfully archived tag"]);
  });
});
