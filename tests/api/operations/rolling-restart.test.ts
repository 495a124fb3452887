import { describe, expect, test } from "bun:test";
import { createClient } from "graphql-ws";
import { inArray } from "drizzle-orm";
import { reportConversationMessages } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { failoverProxy } from "../../helpers/failover-proxy.ts";
import { fetchingServer, fetchOnPort, lanternHome, spawnLantern, type LanternProcess } from "../../helpers/lantern-process.ts";
import { freePort } from "../../helpers/processes.ts";
import { postSolving } from "../../helpers/proof-of-work.ts";
import { demoMainForm } from "../../helpers/ready-drafts.ts";
import { ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { joinTeam, loginAs } from "../../helpers/session.ts";
import { GRAPHQL_WS_PROTOCOL } from "../../helpers/websocket.ts";
import { usingPostgres } from "../../setup/template.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";
import { catchUpAfterReconnect, fetchBackUntilKnown, isLiveAnnouncement, knownAtDrop } from "../../../site/src/lib/live-catch-up.ts";

/**
 * A rolling restart (decision 056): two instances on one Postgres behind one address are stopped
 * with SIGTERM and started again one after the other, while a reporter keeps writing in the chat
 * and reading their report, and a case handler's console follows the chat live. No request fails;
 * every message the server acknowledged is stored and reaches the console, live or by the catch-up
 * the pages make once the server says the resubscription listens (decision 056).
 */

const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;
const READ = `query { reporterSubmission { id reportID completed } }`;
const LIVE = `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { id } } }`;
const HISTORY = `query ($id: ID, $before: ID) { reportConversationMessages(reportSubmissionID: $id, last: 100, before: $before) { hasMore messages { id } } }`;

/** fetch through the proxy, addressing a host face as TestServer.fetch does. */
function front(port: number) {
  return fetchingServer({ port, fetch: fetchOnPort(port) });
}

describe.if(usingPostgres())("rolling restart", () => {
  test("two instances restarted one after the other behind one address: no request fails, no chat message is lost", async () => {
    const home = await lanternHome();
    const ports = [await freePort(), await freePort()];
    const instances: LanternProcess[] = await Promise.all(ports.map((port) => spawnLantern(home, { port })));
    const proxy = failoverProxy(ports);
    const server = front(proxy.port);
    let disposeLive = () => {};
    try {
      const form = await home.withDatabase(demoMainForm);
      const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.formId, form.widgets);
      const reporter = new ReporterClient(server, "demo.localhost");
      const login = await postSolving(
        (body) => reporter.fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
        { reportID: credentials.reportID, password: credentials.generatedPassword },
      );
      expect(login.response.status).toBe(200);
      const submissionId = (await reporter.gql<{ reporterSubmission: { id: string } }>(READ)).data!.reporterSubmission.id;
      const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
      await joinTeam(owner, submissionId);

      // The console's live chat, configured as the pages' client is (site/src/lib/live.ts): retry
      // whatever closes the socket, and once the server listens again, fetch what was missed.
      const seen = new Set<string>();
      const acknowledged: string[] = [];
      const closeCodes: number[] = [];
      const catchUps: Promise<void>[] = [];
      let announcements = 0;
      const history = async (before: string | undefined) => {
        const result = await owner.gql<{ reportConversationMessages: { hasMore: boolean; messages: { id: string }[] } }>(HISTORY, { id: submissionId, before: before ?? null });
        return result.data ? { ok: true as const, ...result.data.reportConversationMessages } : { ok: false as const, message: JSON.stringify(result).slice(0, 300) };
      };
      // As the pages do: the catch-up reaches back to what was seen when the socket dropped.
      const reachBack = knownAtDrop(() => [...seen].map((id) => ({ id })));
      const catchUp = catchUpAfterReconnect(() => {
        const fetched = fetchBackUntilKnown(reachBack.known(), history, (messages) => {
          for (const message of messages) seen.add(message.id);
        }).then((failure) => {
          if (failure) console.log("catch-up failed", failure);
          else reachBack.caughtUp();
        });
        catchUps.push(fetched);
      });
      const host = `localhost:${proxy.port}`;
      const headers = { Host: host, Origin: `http://${host}`, Cookie: owner.cookie };
      const client = createClient({
        url: `ws://127.0.0.1:${proxy.port}/api/gql/query`,
        webSocketImpl: class extends WebSocket {
          constructor(url: string | URL, protocols?: string | string[]) {
            super(url, { protocols: protocols ?? GRAPHQL_WS_PROTOCOL, headers } as unknown as string[]);
          }
        },
        lazy: true,
        retryAttempts: Infinity,
        retryWait: () => Bun.sleep(50),
        shouldRetry: () => true,
        on: {
          closed: (event) => {
            closeCodes.push((event as CloseEvent).code);
            catchUp.cancel();
            reachBack.dropped();
          },
          connected: (_socket, _payload, wasRetry) => {
            if (wasRetry) catchUp.reconnected();
          },
          pong: (received, payload) => {
            if (!received) return;
            if (isLiveAnnouncement(payload)) announcements += 1;
            catchUp.pong(payload);
          },
        },
      });
      disposeLive = client.subscribe<{ reportConversationMessage: { message: { id: string } } }>(
        { query: LIVE, variables: { id: submissionId } },
        { next: (result) => void (result.data && seen.add(result.data.reportConversationMessage.message.id)), error: () => {}, complete: () => {} },
      );

      // The console hears the chat before the restarts begin.
      const failures: string[] = [];
      const send = async (text: string) => {
        const result = await reporter.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { text }).catch((error: unknown) => ({ errors: [{ message: String(error) }], data: undefined }));
        if (result.data?.reportConversationSendMessage.id) acknowledged.push(result.data.reportConversationSendMessage.id);
        else failures.push(`send: ${JSON.stringify(result.errors)}`);
      };
      let warmUp = 0;
      while (seen.size === 0 && warmUp < 100) {
        await send(`warm-up ${warmUp++}`);
        await holdsWithin(() => seen.size > 0, 200);
      }
      expect(seen.size).toBeGreaterThan(0);

      let running = true;
      const chat = (async () => {
        for (let i = 0; running; i += 1) await send(`message ${i}`);
      })();
      const reads = (async () => {
        while (running) {
          const result = await reporter.gql<{ reporterSubmission: { reportID: string } }>(READ).catch((error: unknown) => ({ errors: [{ message: String(error) }], data: undefined }));
          if (result.data?.reporterSubmission.reportID !== credentials.reportID) failures.push(`read: ${JSON.stringify(result.errors)}`);
        }
      })();

      for (const [at, port] of ports.entries()) {
        const before = acknowledged.length;
        instances[at]!.child.kill("SIGTERM");
        expect(await instances[at]!.child.exited).toBe(0);
        instances[at] = await spawnLantern(home, { port });
        // Traffic flowed through this step before the next instance goes.
        expect(await holdsWithin(() => acknowledged.length >= before + 20, 30_000)).toBe(true);
      }
      running = false;
      await Promise.all([chat, reads]);

      expect(failures).toEqual([]);
      expect(proxy.dropped).toBe(0);
      // The console's socket went with its instance, with the code that says "reconnect", and came back.
      expect(closeCodes).toContain(1012);
      const unseen = async () => ((await holdsWithin(() => acknowledged.every((id) => seen.has(id)), 15_000)) ? [] : acknowledged.filter((id) => !seen.has(id)));
      expect(await unseen()).toEqual([]);
      // Each instance that took the subscription up said when it listened: the first, and the one after
      // the reconnect (the console's socket drops only when its own instance restarts).
      expect(announcements).toBeGreaterThanOrEqual(2);
      expect(catchUps.length).toBeGreaterThanOrEqual(1);
      await Promise.all(catchUps);
      const stored = await home.withDatabase((db) => db.select({ id: reportConversationMessages.id }).from(reportConversationMessages).where(inArray(reportConversationMessages.id, acknowledged)));
      expect(stored.length).toBe(acknowledged.length);
    } finally {
      disposeLive();
      await proxy.stop();
      for (const instance of instances) instance.child.kill("SIGTERM");
      expect(await Promise.all(instances.map((instance) => instance.child.exited))).toEqual([0, 0]);
      await home.remove();
    }
  }, 240_000);
});
