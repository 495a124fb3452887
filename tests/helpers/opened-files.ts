import type { SealPurpose } from "../../api/lib/key-ring.ts";
import type { TestServer } from "./server.ts";

/** A stored text as its organisation's key opens it (docs/decisions/049-encryption-at-rest.md). */
export async function openedText(server: TestServer, organisationId: string, purpose: SealPurpose, stored: string): Promise<string> {
  const sealer = await server.lantern.services.keyRing.sealer(server.db, organisationId);
  return sealer.openText(purpose, stored);
}

/** A stored file's bytes as its organisation's key opens them. */
export async function openedFile(server: TestServer, organisationId: string, stored: Uint8Array): Promise<Uint8Array> {
  const sealer = await server.lantern.services.keyRing.sealer(server.db, organisationId);
  return sealer.openFile(stored);
}
