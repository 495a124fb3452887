import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { KeyRing, Sealer, SEALED_TEXT_PREFIX } from "../../../api/lib/key-ring.ts";
import { masterKeyId, MasterKeyError, type MasterKeys } from "../../../api/lib/master-key.ts";
import { rotateKeys } from "../../../api/lib/key-rotation.ts";
import { UnsealError } from "../../../api/lib/sealing.ts";
import { dataKeys, organisations, platformKeys } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";

let server: TestServer;
let orgA: string;
let orgB: string;

const key = (fill: number) => new Uint8Array(32).fill(fill);
const masters = (current: Uint8Array, previous: Uint8Array | null = null): MasterKeys => ({
  current: { id: masterKeyId(current), key: current },
  previous: previous ? { id: masterKeyId(previous), key: previous } : null,
  generatedAt: null,
});
const testMaster = new Uint8Array(Buffer.from(TEST_MASTER_KEY, "base64"));

async function newOrganisation(name: string): Promise<string> {
  const [row] = await server.db.insert(organisations).values({ name, slug: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}` }).returning({ id: organisations.id });
  return row!.id;
}

beforeAll(async () => {
  server = await startTestServer();
  orgA = await newOrganisation("Sealed");
  orgB = await newOrganisation("Other");
});
afterAll(() => server.stop());

describe("sealing an organisation's values", () => {
  test("a text opens to what was sealed, carries no trace of it, and differs each time", async () => {
    const sealer = await server.lantern.services.keyRing.sealer(server.db, orgA);
    const canary = "The manager Canary Whistle took the money — ünïcødé 😀";
    const first = sealer.sealText("answer", canary);
    const second = sealer.sealText("answer", canary);
    expect(first.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
    expect(first).not.toContain("Canary");
    expect(Buffer.from(first.slice(SEALED_TEXT_PREFIX.length), "base64url").toString("latin1")).not.toContain("Canary");
    expect(first).not.toBe(second);
    expect(sealer.openText("answer", first)).toBe(canary);
    expect(Sealer.keyIdOfText(first)).toBe(sealer.activeKeyId);
  });

  test("the empty text stays empty, and text from before encryption reads as it is", async () => {
    const sealer = await server.lantern.services.keyRing.sealer(server.db, orgA);
    expect(sealer.sealText("note", "")).toBe("");
    expect(sealer.openText("note", "written before encryption")).toBe("written before encryption");
  });

  test("a value opens only for its own organisation and purpose, and not at all once changed", async () => {
    const ring = server.lantern.services.keyRing;
    const a = await ring.sealer(server.db, orgA);
    const b = await ring.sealer(server.db, orgB);
    expect(a.activeKeyId).not.toBe(b.activeKeyId);
    const sealed = a.sealText("message", "only for A's messages");
    expect(() => b.openText("message", sealed)).toThrow(UnsealError);
    expect(() => a.openText("note", sealed)).toThrow(UnsealError);
    const body = Buffer.from(sealed.slice(SEALED_TEXT_PREFIX.length), "base64url");
    body[body.length - 1]! ^= 1;
    expect(() => a.openText("message", `${SEALED_TEXT_PREFIX}${body.toString("base64url")}`)).toThrow(UnsealError);
  });

  test("files are sealed whole; bytes from before encryption read as they are", async () => {
    const sealer = await server.lantern.services.keyRing.sealer(server.db, orgA);
    const original = new TextEncoder().encode("%PDF-1.7 /Author (Canary Whistle)");
    const sealed = sealer.sealFile(original);
    expect(Buffer.from(sealed).toString("latin1")).not.toContain("Canary");
    expect(sealer.openFile(sealed)).toEqual(original);
    expect(sealer.openFile(original)).toEqual(original);
  });

  test("the data key is stored only wrapped by the master key", async () => {
    const sealer = await server.lantern.services.keyRing.sealer(server.db, orgA);
    const [row] = await server.db.select().from(dataKeys).where(eq(dataKeys.id, sealer.activeKeyId));
    expect(row!.masterKeyId).toBe(masterKeyId(testMaster));
    expect(Buffer.from(row!.wrappedKey, "base64").length).toBe(12 + 32 + 16);
  });

  test("a key made inside a transaction that rolls back is never used afterwards", async () => {
    const ring = new KeyRing(masters(testMaster), server.db);
    const org = await newOrganisation("Rollback");
    let phantom = "";
    await server.db
      .transaction(async (tx) => {
        phantom = (await ring.sealer(tx, org)).activeKeyId;
        expect((await ring.sealer(tx, org)).activeKeyId).toBe(phantom);
        tx.rollback();
      })
      .catch(() => {});
    const after = await ring.sealer(server.db, org);
    expect(after.activeKeyId).not.toBe(phantom);
    expect((await server.db.select().from(dataKeys).where(eq(dataKeys.organisationId, org))).map((row) => row.id)).toEqual([after.activeKeyId]);
  });
});

describe("sealing the platform's secrets (decision 062)", () => {
  test("a secret opens only for its own owner and purpose, never with an organisation's key", async () => {
    const ring = server.lantern.services.keyRing;
    const platform = await ring.platformSealer(server.db);
    const owner = crypto.randomUUID();
    const sealed = platform.sealText("twoFactorSecret", owner, "JBSWY3DPEHPK3PXP");
    expect(sealed.startsWith(SEALED_TEXT_PREFIX)).toBe(true);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(platform.openText("twoFactorSecret", owner, sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(() => platform.openText("twoFactorSecret", crypto.randomUUID(), sealed)).toThrow(UnsealError);
    expect(() => platform.openText("proofOfWorkSecret", owner, sealed)).toThrow(UnsealError);
    const organisation = await ring.sealer(server.db, orgA);
    expect(() => organisation.openText("answer", sealed)).toThrow(UnsealError);
    // A value from before sealing reads as it is.
    expect(platform.openText("twoFactorSecret", owner, "JBSWY3DPEHPK3PXP")).toBe("JBSWY3DPEHPK3PXP");
  });

  test("the platform's key is stored only wrapped by the master key, apart from the organisations' keys", async () => {
    const platform = await server.lantern.services.keyRing.platformSealer(server.db);
    const [row] = await server.db.select().from(platformKeys).where(eq(platformKeys.id, platform.activeKeyId));
    expect(row!.masterKeyId).toBe(masterKeyId(testMaster));
    expect(await server.db.select().from(dataKeys).where(eq(dataKeys.id, platform.activeKeyId))).toEqual([]);
    await new KeyRing(masters(testMaster), server.db).verify();
    await expect(new KeyRing(masters(key(9)), server.db).verify()).rejects.toBeInstanceOf(MasterKeyError);
  });
});

describe("an organisation's first key", () => {
  test("many requests sealing an organisation's first values at once share one key", async () => {
    const org = await newOrganisation("Crowded");
    const rings = [server.lantern.services.keyRing, new KeyRing(masters(testMaster), server.db), new KeyRing(masters(testMaster), server.db)];
    const sealers = await Promise.all(Array.from({ length: 9 }, (_, index) => rings[index % 3]!.sealer(server.db, org)));
    expect(new Set(sealers.map((sealer) => sealer.activeKeyId)).size).toBe(1);
    expect(await server.db.select().from(dataKeys).where(eq(dataKeys.organisationId, org))).toHaveLength(1);
    const sealed = sealers.map((sealer, index) => sealer.sealText("answer", `from request ${index}`));
    sealed.forEach((value, index) => expect(sealers[(index + 1) % sealers.length]!.openText("answer", value)).toBe(`from request ${index}`));
  });

  test("the same inside transactions that run at once", async () => {
    const org = await newOrganisation("Transactional");
    const ring = new KeyRing(masters(testMaster), server.db);
    const ids = await Promise.all(Array.from({ length: 4 }, () => server.db.transaction(async (tx) => (await ring.sealer(tx, org)).activeKeyId)));
    expect(new Set(ids).size).toBe(1);
    expect(await server.db.select().from(dataKeys).where(eq(dataKeys.organisationId, org))).toHaveLength(1);
  });
});

describe("master keys", () => {
  test("a server with another master key is refused with one line naming both keys", async () => {
    await server.lantern.services.keyRing.sealer(server.db, orgA);
    const wrong = new KeyRing(masters(key(9)), server.db);
    const error = await wrong.verify().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MasterKeyError);
    expect((error as Error).message).toContain(`wrapped by master key ${masterKeyId(testMaster)}`);
    expect((error as Error).message).toContain(`this server has ${masterKeyId(key(9))}`);
    expect((error as Error).message).not.toContain("\n");
  });

  test("a data key whose wrapping was changed is refused, never read as garbage", async () => {
    const org = await newOrganisation("Tampered");
    const ring = new KeyRing(masters(testMaster), server.db);
    const { activeKeyId } = await ring.sealer(server.db, org);
    const [row] = await server.db.select().from(dataKeys).where(eq(dataKeys.id, activeKeyId));
    const wrapped = Buffer.from(row!.wrappedKey, "base64");
    wrapped[20]! ^= 0xff;
    await server.db.update(dataKeys).set({ wrappedKey: wrapped.toString("base64") }).where(eq(dataKeys.id, activeKeyId));
    await expect(new KeyRing(masters(testMaster), server.db).verify()).rejects.toThrow(`Data key ${activeKeyId} does not open`);
    await server.db.delete(dataKeys).where(eq(dataKeys.id, activeKeyId));
  });
});

describe("rotate-keys", () => {
  test("the master key changes and every organisation gets a new data key; what the old keys sealed still opens", async () => {
    const rotating = await newOrganisation("Rotating");
    let clock = Date.now();
    // A server restarted with the new key as MASTER_KEY and the old as MASTER_KEY_PREVIOUS, as the README says to do first.
    const before = new KeyRing(masters(key(42), testMaster), server.db, { now: () => clock, listTtlMs: 1_000 });
    const oldSealer = await before.sealer(server.db, rotating);
    const sealedBefore = oldSealer.sealText("answer", "sealed before the rotation");

    const next = key(42);
    const result = await rotateKeys(server.db, masters(next, testMaster), { switchDelayMs: 5_000, now: () => clock });
    expect(result.rewrapped).toBeGreaterThan(0);
    expect(result.newKeys).toBeGreaterThan(1);
    const rows = await server.db.select().from(dataKeys);
    expect(new Set(rows.map((row) => row.masterKeyId))).toEqual(new Set([masterKeyId(next)]));
    // The platform's keys are rewrapped too, and it has a new one beside the organisations'.
    const platformRows = await server.db.select().from(platformKeys);
    expect(new Set(platformRows.map((row) => row.masterKeyId))).toEqual(new Set([masterKeyId(next)]));
    expect(platformRows.filter((row) => row.activeFrom.getTime() === result.activeFrom.getTime())).toHaveLength(1);

    // Only the new master key is needed now; the old alone no longer opens the database.
    const after = new KeyRing(masters(next), server.db, { now: () => clock, listTtlMs: 1_000 });
    await after.verify();
    await expect(new KeyRing(masters(testMaster), server.db).verify()).rejects.toBeInstanceOf(MasterKeyError);

    // Until the switch, everyone still seals with the old key (every instance has time to load the new one).
    expect((await after.sealer(server.db, rotating)).activeKeyId).toBe(oldSealer.activeKeyId);
    clock += 6_000;
    const newSealer = await after.sealer(server.db, rotating);
    expect(newSealer.activeKeyId).not.toBe(oldSealer.activeKeyId);
    expect(newSealer.openText("answer", sealedBefore)).toBe("sealed before the rotation");
    // An instance that loaded the list before the rotation learns the new key within the list's lifetime.
    const sealedAfter = newSealer.sealText("answer", "sealed after");
    expect((await before.sealer(server.db, rotating)).openText("answer", sealedAfter)).toBe("sealed after");

    // Put the test key back for the rest of the file.
    await rotateKeys(server.db, masters(testMaster, next), { switchDelayMs: 0 });
  });
});
