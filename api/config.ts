import * as v from "valibot";
import { resolve } from "node:path";

/**
 * Every setting Lantern reads from the environment, parsed once. Defaults describe the embedded
 * mode (PGlite, local blob directory, on-disk outbox) so that `bun run start` needs nothing set.
 */

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));

const hostname = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, "must be a host name such as lantern.example"),
);

const port = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a whole number"),
  v.transform(Number),
  v.minValue(0, "must be 0 to 65535"),
  v.maxValue(65535, "must be 0 to 65535"),
);

const urlWithScheme = (schemes: string[]) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.url("must be a URL"),
    v.check((value) => schemes.some((s) => value.startsWith(`${s}://`)), `must start with ${schemes.map((s) => `${s}://`).join(" or ")}`),
  );

/** 32 bytes in base64 (standard or URL-safe, padding optional), as `openssl rand -base64 32` prints them. */
export function decodeMasterKeyText(text: string): Uint8Array | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? new Uint8Array(bytes) : null;
}

const masterKeyText = v.pipe(
  v.string(),
  v.check((value) => decodeMasterKeyText(value) !== null, "must be 32 random bytes in base64 (openssl rand -base64 32)"),
);

const EnvSchema = v.object({
  PORT: v.optional(port, "3000"),
  APP_DOMAIN: v.optional(hostname, "localhost"),
  DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), "./data"),
  DATABASE_URL: v.optional(urlWithScheme(["postgres", "postgresql"])),
  SMTP_URL: v.optional(urlWithScheme(["smtp", "smtps"])),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.trim(), v.email("must be an email address")), "no-reply@lantern.localhost"),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: v.optional(urlWithScheme(["http", "https"])),
  S3_REGION: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), "us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: v.optional(v.picklist(["true", "false"], "must be true or false"), "true"),
  NODE_ENV: v.optional(v.picklist(["production", "development", "test"], "must be production, development or test"), "development"),
  PUBLIC_ORIGIN_PROTOCOL: v.optional(v.picklist(["http", "https"], "must be http or https")),
  LOG_LEVEL: v.optional(v.picklist(["silent", "error", "info"], "must be silent, error or info"), "info"),
  // Single sign-on (docs/decisions/031-single-sign-on.md): any OpenID Connect issuer laid out as
  // Microsoft Entra ID's is, `{SSO_AUTHORITY}/{SSO_TENANT}/v2.0/.well-known/openid-configuration`.
  SSO_CLIENT_ID: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200, "must be at most 200 characters"))),
  SSO_CLIENT_SECRET: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(500, "must be at most 500 characters"))),
  SSO_TENANT: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,199}$/, "must be a tenant id or domain such as contoso.onmicrosoft.com"))),
  SSO_AUTHORITY: v.optional(urlWithScheme(["https", "http"]), "https://login.microsoftonline.com"),
  // Form translation (docs/decisions/043-form-translation.md): none unless a provider is named.
  TRANSLATION_PROVIDER: v.optional(v.picklist(["libretranslate", "deepl", "google"], "must be libretranslate, deepl or google")),
  TRANSLATION_URL: v.optional(urlWithScheme(["https", "http"])),
  TRANSLATION_API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500, "must be at most 500 characters"))),
  // Encryption at rest (docs/decisions/049-encryption-at-rest.md): 32 random bytes in base64, given
  // as the value or as a file holding it; the previous one only while keys are being rotated.
  MASTER_KEY: v.optional(masterKeyText),
  // The embedded database's own backups (docs/decisions/070-automatic-backups.md): 0 minutes turns them off.
  BACKUP_INTERVAL_MINUTES: v.optional(v.pipe(v.string(), v.regex(/^\d{1,6}$/, "must be a whole number of minutes (0 turns automatic backups off)"), v.transform(Number), v.maxValue(527_040, "must be at most a year")), "1440"),
  BACKUP_KEEP: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, "must be a whole number of archives"), v.transform(Number), v.minValue(1, "must be at least 1"), v.maxValue(1000, "must be at most 1000")), "7"),
  BACKUP_DIR: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  MASTER_KEY_FILE: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  MASTER_KEY_PREVIOUS: v.optional(masterKeyText),
  // The metrics page (docs/decisions/054-health-and-metrics.md) is off unless a scraper's token is set.
  // How long a stopping server lets requests under way finish (decision 056).
  SHUTDOWN_GRACE_SECONDS: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^\d{1,9}$/, "must be a whole number of seconds"), v.transform(Number), v.maxValue(3600, "must be at most 3600")),
    "10",
  ),
  METRICS_TOKEN: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[\x21-\x7e]*$/, "must be printable ASCII without spaces (openssl rand -hex 32)"),
      v.minLength(32, "must be at least 32 characters (openssl rand -hex 32)"),
      v.maxLength(512, "must be at most 512 characters"),
    ),
  ),
});

export type BlobStoreConfig =
  | { kind: "local"; directory: string }
  | { kind: "s3"; bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };

export type DatabaseConfig = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

/** The OpenID Connect issuer staff of organisations with enableSSO sign in with; null when not set up. */
export interface SsoConfig {
  clientId: string;
  clientSecret: string;
  tenant: string;
  /** Base URL of the authority, without a trailing slash: https://login.microsoftonline.com by default. */
  authority: string;
}

/**
 * The machine-translation provider for organisations' forms; null when none is set up. A
 * LibreTranslate-compatible server is the private choice (it can run beside Lantern); DeepL and
 * Google Cloud Translation are hosted services reached with an API key.
 */
export interface TranslationConfig {
  provider: "libretranslate" | "deepl" | "google";
  /** Base URL without a trailing slash; each provider has its public default. */
  url: string;
  apiKey: string | null;
}

const TRANSLATION_DEFAULT_URLS: Record<TranslationConfig["provider"], string | null> = {
  // A LibreTranslate server is the operator's own: there is no sensible default address.
  libretranslate: null,
  deepl: "https://api.deepl.com",
  google: "https://translation.googleapis.com",
};

/**
 * Where the master key comes from. On the embedded database it may be generated into DATA_DIR on
 * first start; with DATABASE_URL the operator must give it, so it is never kept beside the data.
 */
export interface MasterKeyConfig {
  source: { kind: "value"; value: string } | { kind: "file"; path: string } | { kind: "generated"; path: string };
  previous: string | null;
}

export type MailConfig = { kind: "outbox"; directory: string; from: string } | { kind: "smtp"; url: string; from: string };

export interface Config {
  port: number;
  appDomain: string;
  dataDir: string;
  database: DatabaseConfig;
  blobs: BlobStoreConfig;
  mail: MailConfig;
  production: boolean;
  /** Protocol used to build absolute links (emails, redirects between subdomains). */
  protocol: "http" | "https";
  logLevel: "silent" | "error" | "info";
  sso: SsoConfig | null;
  translation: TranslationConfig | null;
  masterKey: MasterKeyConfig;
  /** The bearer token a Prometheus scraper sends for /metrics; null turns the page off. */
  metricsToken: string | null;
  /** How long SIGTERM waits for requests under way before closing what is left (decision 056). */
  shutdownGraceMs: number;
  /** The embedded database's automatic backups; null on Postgres (pg_dump is the operator's) or when turned off. */
  backups: BackupSchedule | null;
}

/** Automatic backups of the embedded database: where, how often, how many are kept. */
export interface BackupSchedule {
  directory: string;
  everyMs: number;
  keep: number;
}

export class ConfigError extends Error {}

const SECRET_SETTINGS = new Set(["MASTER_KEY", "MASTER_KEY_PREVIOUS", "DATABASE_URL", "SMTP_URL", "S3_SECRET_ACCESS_KEY", "SSO_CLIENT_SECRET", "TRANSLATION_API_KEY", "METRICS_TOKEN"]);

/** Parses an environment; throws ConfigError with one line naming the bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) {
    const issue = result.issues[0];
    const key = issue?.path?.[0]?.key ?? "environment";
    // A secret, or a URL that may hold a password, is never repeated into a log.
    const shown = typeof issue?.input === "string" && !SECRET_SETTINGS.has(String(key)) ? ` (got "${issue.input}")` : "";
    throw new ConfigError(`Invalid configuration: ${String(key)} ${issue?.message ?? "is invalid"}${shown}`);
  }
  const e = result.output;
  const dataDir = resolve(e.DATA_DIR);
  const production = e.NODE_ENV === "production";
  const s3Set = Object.keys(present).some((key) => key.startsWith("S3_") && key !== "S3_REGION" && key !== "S3_FORCE_PATH_STYLE");
  if (s3Set && !e.S3_BUCKET) throw new ConfigError("Invalid configuration: S3_BUCKET is required when any S3_ setting is given");
  const blobs: BlobStoreConfig = e.S3_BUCKET
    ? {
        kind: "s3",
        bucket: e.S3_BUCKET,
        ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
        region: e.S3_REGION,
        ...(e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID } : {}),
        ...(e.S3_SECRET_ACCESS_KEY ? { secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
        forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
      }
    : { kind: "local", directory: resolve(dataDir, "blobs") };
  return {
    sso: ssoConfig(e, production),
    translation: translationConfig(e),
    masterKey: masterKeyConfig(e, dataDir),
    port: e.PORT,
    appDomain: e.APP_DOMAIN,
    dataDir,
    database: e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", dataDir: resolve(dataDir, "pglite") },
    blobs,
    mail: e.SMTP_URL
      ? { kind: "smtp", url: e.SMTP_URL, from: e.MAIL_FROM }
      : { kind: "outbox", directory: resolve(dataDir, "outbox"), from: e.MAIL_FROM },
    production,
    protocol: e.PUBLIC_ORIGIN_PROTOCOL ?? (production ? "https" : "http"),
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN ?? null,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    backups:
      e.DATABASE_URL || e.BACKUP_INTERVAL_MINUTES === 0
        ? null
        : { directory: resolve(dataDir, e.BACKUP_DIR ?? "backups"), everyMs: e.BACKUP_INTERVAL_MINUTES * 60_000, keep: e.BACKUP_KEEP },
  };
}

function ssoConfig(e: v.InferOutput<typeof EnvSchema>, production: boolean): SsoConfig | null {
  const given = [e.SSO_CLIENT_ID, e.SSO_CLIENT_SECRET, e.SSO_TENANT];
  if (given.every((value) => value === undefined)) return null;
  if (!e.SSO_CLIENT_ID || !e.SSO_CLIENT_SECRET || !e.SSO_TENANT) {
    throw new ConfigError("Invalid configuration: SSO_CLIENT_ID, SSO_CLIENT_SECRET and SSO_TENANT are all required when any of them is given");
  }
  // Keys and tokens fetched over plain HTTP could be swapped on the way: only tests on loopback may.
  if (production && !e.SSO_AUTHORITY.startsWith("https://")) throw new ConfigError("Invalid configuration: SSO_AUTHORITY must start with https:// in production");
  return { clientId: e.SSO_CLIENT_ID, clientSecret: e.SSO_CLIENT_SECRET, tenant: e.SSO_TENANT, authority: e.SSO_AUTHORITY.replace(/\/+$/, "") };
}

function masterKeyConfig(e: v.InferOutput<typeof EnvSchema>, dataDir: string): MasterKeyConfig {
  if (e.MASTER_KEY && e.MASTER_KEY_FILE) throw new ConfigError("Invalid configuration: give MASTER_KEY or MASTER_KEY_FILE, not both");
  const previous = e.MASTER_KEY_PREVIOUS ?? null;
  if (e.MASTER_KEY) return { source: { kind: "value", value: e.MASTER_KEY }, previous };
  if (e.MASTER_KEY_FILE) return { source: { kind: "file", path: resolve(e.MASTER_KEY_FILE) }, previous };
  if (e.DATABASE_URL) {
    throw new ConfigError("Invalid configuration: MASTER_KEY or MASTER_KEY_FILE is required with DATABASE_URL (create one with `openssl rand -base64 32` and keep it apart from the database and its backups)");
  }
  return { source: { kind: "generated", path: resolve(dataDir, "master.key") }, previous };
}

function translationConfig(e: v.InferOutput<typeof EnvSchema>): TranslationConfig | null {
  if (!e.TRANSLATION_PROVIDER) {
    if (e.TRANSLATION_URL || e.TRANSLATION_API_KEY) throw new ConfigError("Invalid configuration: TRANSLATION_PROVIDER is required when TRANSLATION_URL or TRANSLATION_API_KEY is given");
    return null;
  }
  const url = e.TRANSLATION_URL ?? TRANSLATION_DEFAULT_URLS[e.TRANSLATION_PROVIDER];
  if (!url) throw new ConfigError(`Invalid configuration: TRANSLATION_URL is required for ${e.TRANSLATION_PROVIDER}`);
  if (e.TRANSLATION_PROVIDER !== "libretranslate" && !e.TRANSLATION_API_KEY) throw new ConfigError(`Invalid configuration: TRANSLATION_API_KEY is required for ${e.TRANSLATION_PROVIDER}`);
  return { provider: e.TRANSLATION_PROVIDER, url: url.replace(/\/+$/, ""), apiKey: e.TRANSLATION_API_KEY ?? null };
}

/** Parses process.env or ends the process with one clear line and exit code 78 (configuration error). */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}
