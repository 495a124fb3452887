import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseConfig } from "../../../api/config.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";

const MAIN = join(import.meta.dir, "..", "..", "..", "api", "main.ts");

describe("configuration", () => {
  test("defaults describe the embedded mode", () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.appDomain).toBe("localhost");
    expect(config.database.kind).toBe("pglite");
    expect(config.blobs.kind).toBe("local");
    expect(config.mail.kind).toBe("outbox");
    expect(config.production).toBe(false);
  });

  test("DATABASE_URL, S3_* and SMTP_URL switch to the real services", () => {
    const config = parseConfig({
      DATABASE_URL: "postgres://lantern@db:5432/lantern",
      S3_BUCKET: "reports",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      SMTP_URL: "smtp://mail:1025",
      NODE_ENV: "production",
      MASTER_KEY: TEST_MASTER_KEY,
    });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://lantern@db:5432/lantern" });
    expect(config.blobs).toMatchObject({ kind: "s3", bucket: "reports", endpoint: "http://127.0.0.1:9000" });
    expect(config.mail).toMatchObject({ kind: "smtp", url: "smtp://mail:1025" });
    expect(config.protocol).toBe("https");
  });

  test.each([
    [{ PORT: "abc" }, "PORT must be a whole number"],
    [{ PORT: "70000" }, "PORT must be 0 to 65535"],
    [{ DATABASE_URL: "mysql://x/y" }, "DATABASE_URL must start with postgres:// or postgresql://"],
    [{ APP_DOMAIN: "not a domain" }, "APP_DOMAIN must be a host name"],
    [{ NODE_ENV: "staging" }, "NODE_ENV must be production, development or test"],
    [{ S3_ENDPOINT: "http://minio:9000" }, "S3_BUCKET is required"],
    [{ DATABASE_URL: "postgres://db/lantern" }, "MASTER_KEY or MASTER_KEY_FILE is required with DATABASE_URL"],
    [{ MASTER_KEY: "too-short" }, "MASTER_KEY must be 32 random bytes in base64 (openssl rand -base64 32)"],
    [{ MASTER_KEY: Buffer.alloc(31, 1).toString("base64") }, "MASTER_KEY must be 32 random bytes in base64"],
    [{ MASTER_KEY: "\u0000".repeat(44) }, "MASTER_KEY must be 32 random bytes in base64"],
    [{ MASTER_KEY_PREVIOUS: "x".repeat(1_000_000) }, "MASTER_KEY_PREVIOUS must be 32 random bytes in base64"],
    [{ MASTER_KEY: TEST_MASTER_KEY, MASTER_KEY_FILE: "/run/secrets/key" }, "give MASTER_KEY or MASTER_KEY_FILE, not both"],
  ])("rejects %p with a clear message", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  test("a secret that is not valid is never repeated in the message", () => {
    const almost = `${TEST_MASTER_KEY.slice(0, 40)}!!!=`;
    expect(() => parseConfig({ MASTER_KEY: almost })).toThrow("Invalid configuration: MASTER_KEY must be 32 random bytes");
    expect(() => parseConfig({ MASTER_KEY: almost })).not.toThrow(almost);
    expect(() => parseConfig({ DATABASE_URL: "mysql://user:hunter2@db/x" })).not.toThrow("hunter2");
  });

  test("a bad value stops the server with one clear line and a non-zero exit", async () => {
    const child = Bun.spawn(["bun", MAIN], { env: { ...process.env, PORT: "abc", DATABASE_URL: "" }, stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(code).not.toBe(0);
    expect(stderr.trim().split("\n")).toEqual(['Invalid configuration: PORT must be a whole number (got "abc")']);
  });
});
