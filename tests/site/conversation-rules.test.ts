import { describe, expect, test } from "bun:test";
import type { RoleName } from "../../api/shared/enums.ts";
import { permissionsOf } from "../../api/shared/permissions.ts";
import { canSetPriority, previewText, senderText } from "../../site/src/admin/features/conversations/conversation-rules.ts";
import type { ConversationRow } from "../../site/src/admin/features/conversations/conversations-api.ts";
import { imageProblem } from "../../site/src/admin/features/reports/detail/chat-api.ts";
import type { Viewer } from "../../site/src/admin/viewer.ts";

/** What a Conversations row shows and offers, and which files the chat's image control accepts. */

function viewerOf(role: RoleName, organisationId: string | null = "org-1"): Viewer {
  return {
    id: `user-${role}`,
    email: "someone@example.test",
    firstName: "Some",
    lastName: "One",
    verified: true,
    isSSO: false,
    twoFactorAuthenticationActivated: true,
    twoFactorAuthenticationIsSet: true,
    pass2FA: true,
    hasRecoveryCode: true,
    role: { name: role, label: role, permissions: permissionsOf(role) },
    organisation: organisationId ? { id: organisationId, name: "Org", slug: "org" } : null,
  };
}

function rowOf(options: { organisationID?: string; team?: string[]; lastMessage?: ConversationRow["lastMessage"] } = {}): ConversationRow {
  return {
    id: "conversation-1",
    createdAt: "2026-01-01T00:00:00.000Z",
    concluded: false,
    closed: false,
    unreadMessages: 0,
    otherUserStatus: "Offline",
    lastMessage: options.lastMessage ?? null,
    submission: {
      id: "report-1",
      reportID: "ABCDE-FGHJK",
      priority: "Low",
      status: "Assigned",
      archived: false,
      assignedUsers: (options.team ?? []).map((id) => ({ user: { id } })),
      submissionForm: { id: "form-1", organisationID: options.organisationID ?? "org-1", organisationName: "Org" },
    },
  };
}

const message = (fields: Partial<NonNullable<ConversationRow["lastMessage"]>>): NonNullable<ConversationRow["lastMessage"]> => ({
  type: "Text",
  message: "",
  from: "Guest",
  fromUser: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...fields,
});

describe("the urgency selector", () => {
  test("owners and admins get it on their own organisation's chats, team or not; never on another's", () => {
    for (const role of ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"] as const) {
      expect(canSetPriority(viewerOf(role), rowOf())).toBe(true);
      expect(canSetPriority(viewerOf(role), rowOf({ organisationID: "org-2" }))).toBe(false);
    }
  });

  test("members and super admins get it on their team's reports only; guests, who may not set priorities, never", () => {
    expect(canSetPriority(viewerOf("MEMBER"), rowOf({ team: ["user-MEMBER"] }))).toBe(true);
    expect(canSetPriority(viewerOf("MEMBER"), rowOf({ team: ["someone-else"] }))).toBe(false);
    expect(canSetPriority(viewerOf("SUPER_ADMIN", null), rowOf({ team: ["someone-else"] }))).toBe(false);
    expect(canSetPriority(viewerOf("SUPER_ADMIN", null), rowOf({ team: ["user-SUPER_ADMIN"] }))).toBe(true);
    expect(canSetPriority(viewerOf("GUEST_MEMBER"), rowOf({ team: ["user-GUEST_MEMBER"] }))).toBe(false);
  });

  test("without ReportConversationUpdate there is only the badge", () => {
    const owner = viewerOf("ORGANISATION_OWNER");
    owner.role.permissions = owner.role.permissions.filter((permission) => permission !== "ReportConversationUpdate");
    expect(canSetPriority(owner, rowOf())).toBe(false);
  });
});

describe("the last message column", () => {
  test("an image reads 'Image'; text is one line; an empty chat says so", () => {
    expect(previewText(message({ type: "Image", message: "a caption" }))).toBe("Image");
    expect(previewText(message({ message: "  First line\n\nsecond\tline  " }))).toBe("First line second line");
    expect(previewText(null)).toBe("No messages yet");
  });

  test("who it was from: the reporter, a named member of staff, or the system", () => {
    expect(senderText(message({ from: "Guest" }))).toBe("Reporter");
    expect(senderText(message({ from: "User", fromUser: { id: "u", firstName: "Olivia", lastName: "Bennett" } }))).toBe("Olivia B.");
    expect(senderText(message({ from: "User", fromUser: null }))).toBe("Organisation");
    expect(senderText(message({ type: "System", from: "User" }))).toBe("System");
  });
});

describe("the chat's image control", () => {
  test("accepts the spec's image types in any case, up to 5,000,000 bytes", () => {
    for (const name of ["a.jpg", "a.JPEG", "b.png", "c.svg", "d.gif", "e.bmp", "photo.final.Png"]) expect(imageProblem({ name, size: 10 })).toBeNull();
    expect(imageProblem({ name: "a.png", size: 5_000_000 })).toBeNull();
    expect(imageProblem({ name: "a.png", size: 5_000_001 })).toBe("File size too large");
  });

  test("refuses anything else as 'Invalid file'", () => {
    for (const name of ["notes.txt", "image.webp", "png", "archive.png.zip", "a."]) expect(imageProblem({ name, size: 10 })).toBe("Invalid file");
  });
});
