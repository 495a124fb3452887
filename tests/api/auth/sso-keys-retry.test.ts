import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { loadIssuer } from "../../../api/modules/auth/sso-issuer.ts";
import { SSO_SIGN_IN_FAILED, verifyIdToken } from "../../../api/modules/auth/sso-tokens.ts";

/**
 * The issuer's keys are read when the first token arrives. A connection that fails before any
 * answer (a kept-alive one the issuer closed meanwhile) is tried once more rather than turning a
 * good sign-in away; a second failure still refuses it.
 */
const CLIENT_ID = "lantern-test-client";
const NONCE = "the-nonce-of-this-sign-in";
let listener: TCPSocketListener<undefined>;
let authority: string;
let jwks: string;
let privateKey: CryptoKey;
/** How many connections to the keys to close unanswered, from the next one on. */
let dropKeyConnections = 0;
let keyRequests = 0;

function answer(socket: Socket<undefined>, body: string): void {
  socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  socket.end();
}

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  privateKey = pair.privateKey;
  jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: "key-1", alg: "RS256", use: "sig" }] });
  listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket, chunk) {
        const path = /^GET (\S+) HTTP/.exec(chunk.toString("latin1"))?.[1] ?? "";
        const tenant = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(path)?.[1];
        if (tenant) {
          const issuer = `${authority}/${tenant}/v2.0`;
          answer(socket, JSON.stringify({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${authority}/${tenant}/keys` }));
        } else if (path.endsWith("/keys")) {
          keyRequests += 1;
          if (dropKeyConnections > 0) {
            dropKeyConnections -= 1;
            socket.end();
          } else answer(socket, jwks);
        } else socket.end();
      },
    },
  });
  authority = `http://127.0.0.1:${listener.port}`;
});
afterAll(() => listener.stop(true));

/** A fresh issuer each time (its own tenant), so its keys have not been read yet. */
async function issuerAndToken(tenant: string) {
  const issuer = await loadIssuer({ clientId: CLIENT_ID, clientSecret: "unused", tenant, authority }, false);
  const token = await new SignJWT({ nonce: NONCE, email: "someone@example.test" })
    .setProtectedHeader({ alg: "RS256", kid: "key-1" })
    .setIssuer(issuer.issuer)
    .setAudience(CLIENT_ID)
    .setSubject("subject-1")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(privateKey);
  return { issuer, token };
}

test("a keys connection closed before any answer is tried once more, and the sign-in goes ahead", async () => {
  const { issuer, token } = await issuerAndToken("first");
  dropKeyConnections = 1;
  keyRequests = 0;
  const claims = await verifyIdToken(token, issuer, CLIENT_ID, NONCE, new Date());
  expect(claims).toEqual({ issuer: issuer.issuer, subject: "subject-1", email: "someone@example.test" });
  expect(keyRequests).toBe(2);
});

test("when the second try fails too, the sign-in is refused with the usual words", async () => {
  const { issuer, token } = await issuerAndToken("second");
  dropKeyConnections = 2;
  keyRequests = 0;
  await expect(verifyIdToken(token, issuer, CLIENT_ID, NONCE, new Date())).rejects.toThrow(SSO_SIGN_IN_FAILED);
  expect(keyRequests).toBe(2);
});
