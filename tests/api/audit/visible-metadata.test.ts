import { describe, expect, test } from "bun:test";
import { visibleMetadata } from "../../../api/modules/audit/metadata.ts";

describe("what of an entry's metadata the audit log shows", () => {
  test("a tag's rename shows its old and new names", () => {
    expect(visibleMetadata("Update", { name: "People & Culture", from: "HR", to: "People & Culture" }, "Tag")).toEqual({ name: "People & Culture", from: "HR", to: "People & Culture" });
  });

  test("other objects' updates keep from and to hidden, and unknown keys stay hidden everywhere", () => {
    expect(visibleMetadata("Update", { from: "secret@old.example", to: "secret@new.example", fields: ["email"] }, "User")).toEqual({ fields: ["email"] });
    expect(visibleMetadata("Update", { from: "a", to: "b", reference: "INT-7" })).toEqual({});
    expect(visibleMetadata("Archive", { name: "Fraud", from: "x", note: "hidden" }, "Tag")).toEqual({ name: "Fraud" });
  });
});
