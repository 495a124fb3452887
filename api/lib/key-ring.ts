import { randomBytes } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { dataKeys, platformKeys } from "../../db/schema/index.ts";
import { MasterKeyError, type MasterKey, type MasterKeys } from "./master-key.ts";
import { KEY_BYTES, openBytes, sealBytes, UnsealError } from "./sealing.ts";

/**
 * The organisations' data keys, unwrapped in memory only (docs/decisions/049-encryption-at-rest.md),
 * and the one place values are sealed and opened. The platform's own keys, for secrets of no
 * organisation (decision 062), are held the same way under the owner name PLATFORM_KEYS.
 *
 * Text is stored as `lx1:` + base64url(key id ‖ nonce ‖ ciphertext ‖ tag); files as `LXB1` + the
 * same bytes. The key id travels with the value, so a value sealed before a rotation still opens
 * after it. A value is bound to its organisation and purpose, so it opens nowhere else. A value
 * without the mark is from before encryption and is read as it is, until it is sealed.
 */

export const SEALED_TEXT_PREFIX = "lx1:";
const SEALED_FILE_MAGIC = new TextEncoder().encode("LXB1");
const KEY_ID_BYTES = 16;

/** What a value is: part of what it is bound to. */
export type SealPurpose = "answer" | "message" | "note" | "file" | "fileName";

/** What a platform secret is (docs/decisions/062-sealed-account-secrets.md): part of what it is bound to. */
export type PlatformSecretPurpose = "twoFactorSecret" | "proofOfWorkSecret";

/**
 * The owner of the platform's keys where the key ring names an organisation. Organisation ids are
 * UUIDs, so it names none of them; it is also what the platform's keys are wrapped for.
 */
export const PLATFORM_KEYS = "platform";

/** How long an instance keeps its list of an organisation's keys before asking again. */
export const KEY_LIST_TTL_MS = 30_000;

/** A data key as stored, the platform's named by PLATFORM_KEYS in place of an organisation. */
type KeyRow = typeof dataKeys.$inferSelect;
const asKeyRow = (row: typeof platformKeys.$inferSelect): KeyRow => ({ ...row, organisationId: PLATFORM_KEYS });

interface OrganisationKeys {
  loadedAt: number;
  /** Oldest first, with when each starts sealing. */
  keys: { id: string; activeFrom: number }[];
}

function uuidBytes(id: string): Uint8Array {
  return new Uint8Array(Buffer.from(id.replace(/-/g, ""), "hex"));
}

function uuidText(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const context = (organisationId: string, purpose: SealPurpose) => `lantern:${purpose}:${organisationId}`;
const platformContext = (purpose: PlatformSecretPurpose, owner: string) => `lantern:${PLATFORM_KEYS}:${purpose}:${owner}`;
const WRAP_CONTEXT = "lantern:data-key";

export function wrapDataKey(master: MasterKey, key: Uint8Array, organisationId: string): string {
  return Buffer.from(sealBytes(master.key, key, `${WRAP_CONTEXT}:${organisationId}`)).toString("base64");
}

export function unwrapDataKey(masters: MasterKeys, row: { id: string; organisationId: string; masterKeyId: string; wrappedKey: string }): Uint8Array {
  const master = [masters.current, masters.previous].find((candidate) => candidate?.id === row.masterKeyId);
  if (!master) {
    throw new MasterKeyError(`The master key does not match this database: its data keys were wrapped by master key ${row.masterKeyId}, and this server has ${masters.current.id}. Start it with the master key the data was sealed with.`);
  }
  try {
    const key = openBytes(master.key, Buffer.from(row.wrappedKey, "base64"), `${WRAP_CONTEXT}:${row.organisationId}`);
    if (key.length !== KEY_BYTES) throw new UnsealError("wrong length");
    return key;
  } catch {
    throw new MasterKeyError(`Data key ${row.id} does not open with master key ${master.id}: the key or the database has been changed.`);
  }
}

/** Whether a stored text is sealed (otherwise it is from before encryption). */
export const isSealedText = (value: string) => value.startsWith(SEALED_TEXT_PREFIX);

export function isSealedFile(bytes: Uint8Array): boolean {
  return bytes.length >= SEALED_FILE_MAGIC.length && SEALED_FILE_MAGIC.every((byte, index) => bytes[index] === byte);
}

/** Each database handle's key ring, for code handed only the handle (the demo seed). */
const ringsByDatabase = new WeakMap<object, KeyRing>();

export class KeyRing {
  /** The key ring a server (or the CLI) made for this database handle; throws if there is none. */
  static of(db: Database): KeyRing {
    const ring = ringsByDatabase.get(db);
    if (!ring) throw new Error("No key ring was made for this database handle");
    return ring;
  }

  /** Every data key this process has unwrapped, with its organisation. */
  private readonly unwrapped = new Map<string, { organisationId: string; key: Uint8Array }>();
  private readonly lists = new Map<string, OrganisationKeys>();
  /**
   * Keys this process created inside a transaction that may still roll back: not remembered until
   * a read outside any transaction shows them committed, so no value is ever sealed with a key
   * that does not exist.
   */
  private readonly uncommitted = new Set<string>();

  constructor(
    private readonly masters: MasterKeys,
    private readonly root: Database,
    private readonly options: { listTtlMs?: number; now?: () => number } = {},
  ) {
    if (!ringsByDatabase.has(root)) ringsByDatabase.set(root, this);
  }

  get masterKeyId(): string {
    return this.masters.current.id;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Checks every data key opens with the master keys given; throws MasterKeyError with one line if not. */
  async verify(): Promise<{ keys: number }> {
    const rows = [...(await this.root.select().from(dataKeys)), ...(await this.root.select().from(platformKeys)).map(asKeyRow)];
    for (const row of rows) this.remember(row);
    return { keys: rows.length };
  }

  private remember(row: KeyRow): void {
    if (!this.unwrapped.has(row.id)) this.unwrapped.set(row.id, { organisationId: row.organisationId, key: unwrapDataKey(this.masters, row) });
  }

  private async keyRows(db: Database, owner: string): Promise<KeyRow[]> {
    if (owner !== PLATFORM_KEYS) return db.select().from(dataKeys).where(eq(dataKeys.organisationId, owner)).orderBy(asc(dataKeys.activeFrom), asc(dataKeys.createdAt));
    return (await db.select().from(platformKeys).orderBy(asc(platformKeys.activeFrom), asc(platformKeys.createdAt))).map(asKeyRow);
  }

  /**
   * An organisation's first key, made under a lock on the organisation so that requests (and
   * instances) sealing its first values at once all end up with the one key: each waits for the
   * first to commit, then finds its key instead of making another.
   */
  private async firstKey(db: Database, organisationId: string) {
    const make = async (tx: Database) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lantern:data-key:${organisationId}`}, 0))`);
      const rows = await this.keyRows(tx, organisationId);
      return rows.length > 0 ? rows : [await this.createKey(tx, organisationId)];
    };
    // Inside the caller's transaction the lock holds until it ends; outside, a short transaction of our own.
    if (db !== this.root) return make(db);
    const rows = await this.root.transaction((tx) => make(tx as unknown as Database));
    for (const row of rows) this.uncommitted.delete(row.id);
    return rows;
  }

  private async keysOf(db: Database, organisationId: string): Promise<OrganisationKeys> {
    const cached = this.lists.get(organisationId);
    const ttl = this.options.listTtlMs ?? KEY_LIST_TTL_MS;
    if (cached && this.now() - cached.loadedAt < ttl && !cached.keys.some((key) => this.uncommitted.has(key.id))) return cached;
    let rows = await this.keyRows(db, organisationId);
    if (rows.length === 0) rows = await this.firstKey(db, organisationId);
    for (const row of rows) this.remember(row);
    const list = { loadedAt: this.now(), keys: rows.map((row) => ({ id: row.id, activeFrom: row.activeFrom.getTime() })) };
    if (db === this.root) for (const key of list.keys) this.uncommitted.delete(key.id);
    if (!list.keys.some((key) => this.uncommitted.has(key.id))) this.lists.set(organisationId, list);
    return list;
  }

  /** A new data key for the organisation (or PLATFORM_KEYS), sealing from `activeFrom` (now unless rotating). */
  async createKey(db: Database, organisationId: string, activeFrom?: Date): Promise<KeyRow> {
    const key = new Uint8Array(randomBytes(KEY_BYTES));
    const id = crypto.randomUUID();
    const values = { id, masterKeyId: this.masters.current.id, wrappedKey: wrapDataKey(this.masters.current, key, organisationId), ...(activeFrom ? { activeFrom } : {}) };
    const [row] =
      organisationId === PLATFORM_KEYS
        ? (await db.insert(platformKeys).values(values).returning()).map(asKeyRow)
        : await db
            .insert(dataKeys)
            .values({ ...values, organisationId })
            .returning();
    this.unwrapped.set(id, { organisationId, key });
    if (db !== this.root) this.uncommitted.add(id);
    return row!;
  }

  /**
   * The organisation's sealer: seals with its active key, opens with any of its keys. `db` may be
   * the caller's transaction (on the embedded database, the only connection is the transaction's).
   */
  async sealer(db: Database, organisationId: string): Promise<Sealer> {
    const { activeKeyId, keyById } = await this.keysToUse(db, organisationId);
    return new Sealer(organisationId, activeKeyId, keyById);
  }

  /**
   * The platform's sealer, for secrets of no organisation (decision 062), each bound to what it
   * belongs to (a user's id). `db` may be the caller's transaction, as for `sealer`.
   */
  async platformSealer(db: Database): Promise<PlatformSealer> {
    const { activeKeyId, keyById } = await this.keysToUse(db, PLATFORM_KEYS);
    return new PlatformSealer(activeKeyId, keyById);
  }

  private async keysToUse(db: Database, organisationId: string) {
    const list = await this.keysOf(db, organisationId);
    const now = this.now();
    const active = [...list.keys].reverse().find((key) => key.activeFrom <= now) ?? list.keys[0]!;
    // Any key of this organisation the process has seen opens (a list read a moment before another
    // request's first key committed must not make that request's values unreadable here).
    const keyById = (id: string) => {
      const known = this.unwrapped.get(id);
      return known && known.organisationId === organisationId && (list.keys.some((key) => key.id === id) || !this.uncommitted.has(id)) ? known.key : undefined;
    };
    return { activeKeyId: active.id, keyById };
  }

  /** One sealer per organisation, for reading rows of several organisations at once (exports, lists). */
  async sealers(db: Database, organisationIds: Iterable<string>): Promise<Map<string, Sealer>> {
    const unique = [...new Set(organisationIds)];
    const sealers = await Promise.all(unique.map((id) => this.sealer(db, id)));
    return new Map(unique.map((id, index) => [id, sealers[index]!]));
  }

  /** Forgets what this process knows of an organisation's keys (after a rotation in this process). */
  forget(organisationId: string): void {
    this.lists.delete(organisationId);
  }
}

/** Seals and opens values with one owner's keys, each bound to a context; everything it does is synchronous. */
class KeyedSealer {
  constructor(
    readonly activeKeyId: string,
    private readonly keyById: (id: string) => Uint8Array | undefined,
  ) {}

  protected seal(context: string, plaintext: Uint8Array, mark: Uint8Array): Uint8Array {
    const key = this.keyById(this.activeKeyId)!;
    const sealed = sealBytes(key, plaintext, context);
    const out = new Uint8Array(mark.length + KEY_ID_BYTES + sealed.length);
    out.set(mark, 0);
    out.set(uuidBytes(this.activeKeyId), mark.length);
    out.set(sealed, mark.length + KEY_ID_BYTES);
    return out;
  }

  protected open(context: string, body: Uint8Array): Uint8Array {
    if (body.length < KEY_ID_BYTES) throw new UnsealError("The sealed value is too short");
    const keyId = uuidText(body.subarray(0, KEY_ID_BYTES));
    const key = this.keyById(keyId);
    if (!key) throw new UnsealError(`The value was sealed with key ${keyId}, which is not one of this owner's`);
    return openBytes(key, body.subarray(KEY_ID_BYTES), context);
  }

  /** The empty text stays empty: there is nothing in it to protect, and defaults stay valid. */
  protected sealTextIn(context: string, text: string): string {
    if (text === "") return text;
    const sealed = this.seal(context, new TextEncoder().encode(text), new Uint8Array(0));
    return `${SEALED_TEXT_PREFIX}${Buffer.from(sealed).toString("base64url")}`;
  }

  protected openTextIn(context: string, stored: string): string {
    if (!isSealedText(stored)) return stored;
    const body = new Uint8Array(Buffer.from(stored.slice(SEALED_TEXT_PREFIX.length), "base64url"));
    return new TextDecoder("utf-8", { fatal: true }).decode(this.open(context, body));
  }
}

/** Seals and opens one organisation's values. */
export class Sealer extends KeyedSealer {
  constructor(
    readonly organisationId: string,
    activeKeyId: string,
    keyById: (id: string) => Uint8Array | undefined,
  ) {
    super(activeKeyId, keyById);
  }

  sealText(purpose: SealPurpose, text: string): string {
    return this.sealTextIn(context(this.organisationId, purpose), text);
  }

  openText(purpose: SealPurpose, stored: string): string {
    return this.openTextIn(context(this.organisationId, purpose), stored);
  }

  /** The key id a stored text was sealed with; null for text from before encryption. */
  static keyIdOfText(stored: string): string | null {
    if (!isSealedText(stored)) return null;
    const body = Buffer.from(stored.slice(SEALED_TEXT_PREFIX.length, SEALED_TEXT_PREFIX.length + 24), "base64url");
    return body.length >= KEY_ID_BYTES ? uuidText(new Uint8Array(body.subarray(0, KEY_ID_BYTES))) : null;
  }

  sealFile(bytes: Uint8Array): Uint8Array {
    return this.seal(context(this.organisationId, "file"), bytes, SEALED_FILE_MAGIC);
  }

  openFile(stored: Uint8Array): Uint8Array {
    if (!isSealedFile(stored)) return stored;
    return this.open(context(this.organisationId, "file"), stored.subarray(SEALED_FILE_MAGIC.length));
  }
}

/**
 * Seals and opens the platform's secrets (decision 062). Each is bound to its purpose and to what it
 * belongs to (`owner`: a user's id for an authenticator key), so a value copied to another row does
 * not open there. A value in plain is from before sealing and reads as it is, until it is sealed.
 */
export class PlatformSealer extends KeyedSealer {
  sealText(purpose: PlatformSecretPurpose, owner: string, text: string): string {
    return this.sealTextIn(platformContext(purpose, owner), text);
  }

  openText(purpose: PlatformSecretPurpose, owner: string, stored: string): string {
    return this.openTextIn(platformContext(purpose, owner), stored);
  }
}
