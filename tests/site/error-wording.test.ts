import { describe, expect, test } from "bun:test";
import { CombinedError } from "urql";
import { errorMessage } from "../../site/src/admin/ui/errors.ts";
import { ACTION_FAILED_MESSAGE } from "../../site/src/lib/action-failed.ts";
import { errorMessageFrom, FALLBACK_ERROR_MESSAGE } from "../../site/src/lib/http.ts";

// The two documents word the fallback differently: sign-in calls say 'Something went wrong. Please try again.',
// the console and attach-files 'Something went wrong, please try again.' (document 2 §8).
describe("error wording", () => {
  test("the console shows the server's first message, else the console's fallback", () => {
    expect(errorMessage(new CombinedError({ graphQLErrors: [{ message: "Tag not found" }] }))).toBe("Tag not found");
    expect(errorMessage(new CombinedError({ networkError: new Error("offline") }))).toBe("Something went wrong, please try again.");
    expect(errorMessage(undefined)).toBeUndefined();
  });

  test("sign-in calls keep their own fallback; attach-files passes the console's", () => {
    expect(errorMessageFrom({}, 500)).toBe(FALLBACK_ERROR_MESSAGE);
    expect(FALLBACK_ERROR_MESSAGE).toBe("Something went wrong. Please try again.");
    expect(errorMessageFrom({}, 500, ACTION_FAILED_MESSAGE)).toBe("Something went wrong, please try again.");
    expect(errorMessageFrom({ error: "File too large" }, 400, ACTION_FAILED_MESSAGE)).toBe("File too large");
    expect(errorMessageFrom({}, 413, ACTION_FAILED_MESSAGE)).toBe("413 Request Entity Too Large");
  });
});
