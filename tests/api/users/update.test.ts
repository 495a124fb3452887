import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions } from "../../../db/schema/index.ts";
import { readOutbox } from "../../helpers/outbox-mail.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { giveTwoFactor } from "../../helpers/two-factor.ts";
import * as files from "../../fixtures/files.ts";
import { CHECK, codeOf, messageOf, USER_SUSPEND, USER_UPDATE, usersWorld } from "./users-fixture.ts";

/** userUpdate and userUpdateAvatar (spec §7): passwords, roles, addresses, two-factor and pictures of other users. */
const world = usersWorld();

async function signedInMember() {
  const user = await world.target("MEMBER");
  return { user, client: await loginAs(world.server, user.email, user.password) };
}

/** Every actor of the users world has the factories' password; changes to sign-in or mail need it (decision 061). */
const ownPassword = "correct-horse-1";

const viewerRole = async (client: StaffClient) => (await client.gql<{ viewer: { role: { name: string } } | null }>("{ viewer { role { name } } }")).data?.viewer?.role.name;

describe("userUpdate", () => {
  test("a new password from an admin ends the user's sessions and the old password stops working", async () => {
    const { user, client } = await signedInMember();
    expect(await CHECK(client)).not.toBe("unauthorised");
    const changed = await world.as.ORGANISATION_ADMIN.gql(USER_UPDATE, { id: user.id, input: { password: "brand-new-pass-2", ownPassword } });
    expect(changed.errors).toBeUndefined();
    expect(await CHECK(client)).toBe("unauthorised");
    expect((await world.server.db.select().from(sessions).where(eq(sessions.userId, user.id))).length).toBe(0);
    await expect(loginAs(world.server, user.email, user.password)).rejects.toThrow();
    await loginAs(world.server, user.email, "brand-new-pass-2");
    // The rule applies here too, and one's own password is changed in Settings only.
    expect(messageOf(await world.as.ORGANISATION_ADMIN.gql(USER_UPDATE, { id: user.id, input: { password: "weak", ownPassword } }))).toBe("Password must contain at least 8 characters");
    expect(codeOf(await world.as.ORGANISATION_ADMIN.gql(USER_UPDATE, { id: world.as.ORGANISATION_ADMIN.userId, input: { password: "brand-new-pass-3", ownPassword } }))).toBe("FORBIDDEN");
  });

  test("a role change reaches the user's signed-in session at once", async () => {
    const { user, client } = await signedInMember();
    expect(await viewerRole(client)).toBe("MEMBER");
    const promoted = await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: user.id, input: { roleID: world.roleIds.ORGANISATION_ADMIN } });
    expect(promoted.errors).toBeUndefined();
    expect(await viewerRole(client)).toBe("ORGANISATION_ADMIN");
    // With the admin's permissions, straight away.
    expect((await client.gql("{ users { total } }")).errors).toBeUndefined();
  });

  test("a new address waits for the link mailed to it, the account staying verified; a taken one is refused", async () => {
    const { user } = await signedInMember();
    const address = `moved-${Date.now()}@example.test`;
    const moved = await world.as.ORGANISATION_OWNER.gql<{ userUpdate: { email: string; verified: boolean } }>(USER_UPDATE, { id: user.id, input: { email: address, ownPassword } });
    expect(moved.data?.userUpdate).toEqual(expect.objectContaining({ email: user.email, verified: true }));
    expect(readOutbox(world.server.dataDir).some((mail) => mail.to.includes(address) && mail.text.includes("/admin/confirm-email/"))).toBe(true);
    const other = await world.target("MEMBER");
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: other.id, input: { email: user.email.toUpperCase(), ownPassword } }))).toBe("This email address is already in use.");
  });

  test("a suspended user cannot be edited", async () => {
    const user = await world.target("MEMBER");
    await world.as.ORGANISATION_OWNER.gql(USER_SUSPEND, { id: user.id });
    const refused = await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: user.id, input: { firstName: "Changed" } });
    expect(messageOf(refused)).toBe("Contact admin to unsuspend.");
    expect((await world.userRow(user.id))!.firstName).toBe("Test");
  });

  test("hostile input is refused and changes nothing; another organisation's id is not found", async () => {
    const user = await world.target("MEMBER");
    for (const input of [{ firstName: "a\u0000b" }, { lastName: "y".repeat(1_000_000) }, { email: "nope" }, { firstName: "" }, { avatarBlobID: crypto.randomUUID() }, { organisationID: world.otherId }]) {
      const answer = await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: user.id, input });
      expect(codeOf(answer)).toBe("BAD_USER_INPUT");
    }
    expect(await world.userRow(user.id)).toMatchObject({ firstName: "Test", email: user.email });
    const stranger = await world.target("MEMBER", world.otherId);
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: stranger.id, input: { firstName: "X" } }))).toBe("User is not found");
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: "42", input: { firstName: "X" } }))).toBe("User is not found");
  });
});

describe("two-factor of another user", () => {
  test("a super admin turns it off (the user's sessions end), never on", async () => {
    const { user, client } = await signedInMember();
    await giveTwoFactor(world.server.db, user.id);
    const off = await world.as.SUPER_ADMIN.gql<{ userUpdate: { twoFactorAuthenticationActivated: boolean } }>(USER_UPDATE, { id: user.id, input: { twoFactorAuthenticationActivated: false, ownPassword } });
    expect(off.errors).toBeUndefined();
    expect(off.data?.userUpdate.twoFactorAuthenticationActivated).toBe(false);
    expect(await CHECK(client)).toBe("unauthorised");
    const on = await world.as.SUPER_ADMIN.gql(USER_UPDATE, { id: user.id, input: { twoFactorAuthenticationActivated: true, ownPassword } });
    expect(messageOf(on)).toBe("Super Admins cannot enable Two-Factor Authentication.");
    expect((await world.userRow(user.id))!.twoFactorAuthenticationActivated).toBe(false);
  });

  test("an owner cannot change it on anyone else, though saving the same value is no change", async () => {
    const user = await world.target("MEMBER");
    await giveTwoFactor(world.server.db, user.id);
    expect(codeOf(await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: user.id, input: { twoFactorAuthenticationActivated: false, ownPassword } }))).toBe("FORBIDDEN");
    expect((await world.userRow(user.id))!.twoFactorAuthenticationActivated).toBe(true);
    expect((await world.as.ORGANISATION_OWNER.gql(USER_UPDATE, { id: user.id, input: { firstName: "Kept", twoFactorAuthenticationActivated: true } })).errors).toBeUndefined();
  });
});

describe("userUpdateAvatar", () => {
  const AVATAR = `mutation ($id: ID!, $file: File!) { userUpdateAvatar(id: $id, file: $file) { id avatar { fileURL } } }`;
  async function upload(client: StaffClient, id: string, name: string, data: Uint8Array<ArrayBuffer> | string) {
    const body = new FormData();
    body.append("operations", JSON.stringify({ query: AVATAR, variables: { id, file: null } }));
    body.append("map", JSON.stringify({ 0: ["variables.file"] }));
    body.append("0", new Blob([data], { type: "image/png" }), name);
    const response = await client.fetch("/api/gql/query", { method: "POST", body });
    return (await response.json()) as { data?: { userUpdateAvatar: { avatar: { fileURL: string } | null } }; errors?: { message: string; extensions?: { code?: string } }[] };
  }

  test("allowed for a lower rank, with the picture readable by the organisation; a stranger's id is not found", async () => {
    const user = await world.target("MEMBER");
    const done = await upload(world.as.ORGANISATION_ADMIN, user.id, "face.png", files.pngWithText());
    expect(done.errors).toBeUndefined();
    const picture = await world.as.ORGANISATION_OWNER.fetch(done.data!.userUpdateAvatar.avatar!.fileURL);
    expect(picture.status).toBe(200);
    const owner = await world.target("ORGANISATION_OWNER");
    expect(codeOf(await upload(world.as.ORGANISATION_ADMIN, owner.id, "face.png", files.pngWithText()))).toBe("FORBIDDEN");
    const stranger = await world.target("MEMBER", world.otherId);
    expect(messageOf(await upload(world.as.ORGANISATION_OWNER, stranger.id, "face.png", files.pngWithText()))).toBe("User is not found");
    expect(messageOf(await upload(world.as.ORGANISATION_OWNER, user.id, "face.png", "not an image"))).toBe("Invalid file");
    expect(messageOf(await world.as.ORGANISATION_OWNER.gql(`mutation ($id: ID!) { userUpdateAvatar(id: $id) { id } }`, { id: user.id }))).toBe("Invalid file");
  });
});
