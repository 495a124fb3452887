import { KeyRing, type SealPurpose } from "../../api/lib/key-ring.ts";
import { masterKeyId } from "../../api/lib/master-key.ts";
import type { Database } from "../../db/client.ts";
import { TEST_MASTER_KEY } from "./master-key.ts";
import type { TestServer } from "./server.ts";

/**
 * Messages and notes are stored sealed (docs/decisions/049-encryption-at-rest.md). Tests that read
 * them straight from the tables open them here, as the server does, instead of comparing ciphertext.
 */
export async function openedText(server: TestServer, organisationId: string, purpose: SealPurpose, stored: string): Promise<string> {
  const sealer = await server.lantern.services.keyRing.sealer(server.db, organisationId);
  return sealer.openText(purpose, stored);
}

/** Rows with their `field` opened, each with its own organisation's key. */
export async function openedRows<T extends { organisationId: string }, K extends keyof T & string>(server: TestServer, purpose: SealPurpose, field: K, rows: T[]): Promise<T[]> {
  const sealers = await server.lantern.services.keyRing.sealers(server.db, rows.map((row) => row.organisationId));
  return rows.map((row) => ({ ...row, [field]: sealers.get(row.organisationId)!.openText(purpose, row[field] as string) }));
}

/**
 * A key ring for a bare test database with no server on it (the demo seed needs one to find), with
 * the master key every test server uses, so a server started on that database later opens it too.
 */
export function testKeyRing(db: Database): KeyRing {
  const key = new Uint8Array(Buffer.from(TEST_MASTER_KEY, "base64"));
  return new KeyRing({ current: { id: masterKeyId(key), key }, previous: null, generatedAt: null }, db);
}
