import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { blobs, organisations } from "../../../db/schema/index.ts";
import { newBlobKey } from "../../../api/lib/blob-store.ts";
import { sha256Hex } from "../../../api/lib/tokens.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { createOrganisation } from "../../factories/users.ts";
import { pngWithText } from "../../fixtures/files.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("organisation logos", () => {
  test("the organisation page links its logo, which anyone may load; archived or missing logos are not found", async () => {
    const organisation = await createOrganisation(server.db, { slug: "logo-org", name: "Logo Org" });
    const bytes = pngWithText();
    const key = newBlobKey("logo");
    await server.lantern.services.blobs.put(key, bytes, "image/png");
    const [blob] = await server.db
      .insert(blobs)
      .values({ organisationId: organisation.id, purpose: "OrganisationLogo", storageKey: key, fileName: "logo.png", mimeType: "image/png", sizeBytes: bytes.byteLength, sha256: sha256Hex(bytes) })
      .returning();
    await updateOrganisations(server, eq(organisations.id, organisation.id), { logoBlobId: blob!.id });

    const page = await (await server.fetch("/", { host: "logo-org.localhost" })).text();
    const url = `/api/files/organisation-logo/${organisation.id}`;
    expect(page).toContain(url);
    const logo = await server.fetch(url, { host: "logo-org.localhost" });
    expect(logo.status).toBe(200);
    expect(logo.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(bytes);

    expect((await server.fetch("/api/files/organisation-logo/not-a-uuid")).status).toBe(404);
    await updateOrganisations(server, eq(organisations.id, organisation.id), { archived: true });
    expect((await server.fetch(url)).status).toBe(404);
  });
});
