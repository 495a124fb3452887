import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../../../api/config.ts";
import { createMailer } from "../../../api/lib/mailer.ts";
import { freePort } from "../../helpers/processes.ts";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server.ts";

const FROM = "lantern@example.org";
const SIGN_IN = {
  to: "staff@example.org",
  subject: "Sign in to Lantern",
  text: "Use this link to sign in: https://acme.lantern.example/sign-in/abc123",
};

let dataDir: string;
let smtp: TestSmtpServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "lantern-mail-"));
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The header block of a raw message, with folded lines joined. */
function headersOf(raw: string): string {
  return (raw.split(/\r?\n\r?\n/)[0] ?? "").replace(/\r?\n[ \t]+/g, " ");
}

describe("outbox mailer", () => {
  test("writes each message as one complete .eml file in DATA_DIR/outbox", async () => {
    const config = parseConfig({ DATA_DIR: join(dataDir, "one"), MAIL_FROM: FROM });
    const mailer = createMailer(config.mail);
    expect(mailer.kind).toBe("outbox");
    await mailer.send(SIGN_IN);
    await mailer.close();

    const outbox = join(dataDir, "one", "outbox");
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    const [name] = files as [string];
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]+\.eml$/);
    // Messages carry sign-in links: nobody but the server's user may read them.
    expect((await stat(join(outbox, name))).mode & 0o777).toBe(0o600);

    const raw = await readFile(join(outbox, name), "utf8");
    const headers = headersOf(raw);
    expect(headers).toMatch(/^From: lantern@example\.org$/m);
    expect(headers).toMatch(/^To: staff@example\.org$/m);
    expect(headers).toMatch(/^Subject: Sign in to Lantern$/m);
    expect(headers).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/m);
    expect(headers).toMatch(/^Message-ID: <[^>]+@example\.org>$/m);
    expect(raw).toContain(SIGN_IN.text);
  });

  test("an html part is sent beside the text, and messages never overwrite each other", async () => {
    const config = parseConfig({ DATA_DIR: join(dataDir, "two"), MAIL_FROM: FROM });
    const mailer = createMailer(config.mail);
    await mailer.send({ ...SIGN_IN, html: "<p>Use <a href=\"https://acme.lantern.example/s\">this link</a></p>" });
    await Promise.all([mailer.send(SIGN_IN), mailer.send(SIGN_IN)]);

    const outbox = join(dataDir, "two", "outbox");
    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(3);
    expect(files.every((file) => file.endsWith(".eml"))).toBe(true);
    const contents = await Promise.all(files.map((file) => readFile(join(outbox, file), "utf8")));
    const withHtml = contents.filter((raw) => raw.includes("multipart/alternative"));
    expect(withHtml).toHaveLength(1);
    expect(withHtml[0]).toContain("Content-Type: text/plain");
    expect(withHtml[0]).toContain("Content-Type: text/html");
    expect(withHtml[0]).toContain("this link</a>");
  });
});

describe("SMTP mailer", () => {
  test("delivers to the SMTP server with the right envelope, subject and body", async () => {
    const config = parseConfig({ DATA_DIR: join(dataDir, "smtp"), SMTP_URL: smtp.url, MAIL_FROM: FROM });
    const mailer = createMailer(config.mail);
    expect(mailer.kind).toBe("smtp");
    try {
      await mailer.send(SIGN_IN);
    } finally {
      await mailer.close();
    }
    const [received] = await smtp.waitFor(1);
    expect(smtp.messages).toHaveLength(1);
    expect(received?.from).toBe(FROM);
    expect(received?.to).toEqual(["staff@example.org"]);
    const headers = headersOf(received?.raw ?? "");
    expect(headers).toMatch(/^Subject: Sign in to Lantern$/m);
    expect(headers).toMatch(/^From: lantern@example\.org$/m);
    expect(received?.raw).toContain(SIGN_IN.text);
    // The embedded outbox is not used once SMTP is configured.
    expect(await Bun.file(join(dataDir, "smtp", "outbox")).exists()).toBe(false);
  });

  test("an unreachable server rejects promptly instead of hanging", async () => {
    const config = parseConfig({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, MAIL_FROM: FROM });
    const mailer = createMailer(config.mail, { connectionTimeoutMs: 1000 });
    const started = Date.now();
    try {
      await expect(mailer.send(SIGN_IN)).rejects.toThrow();
    } finally {
      await mailer.close();
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("a server that accepts but never greets times out after connectionTimeoutMs", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = createMailer(parseConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: FROM }).mail, { connectionTimeoutMs: 500 });
    const started = Date.now();
    try {
      await expect(mailer.send(SIGN_IN)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await mailer.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
