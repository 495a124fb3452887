/**
 * The sockets of the chat bench: graphql-ws clients opened as the pages open theirs
 * (site/src/lib/live.ts: protocol graphql-transport-ws on /api/gql/query, a ping every 10 s, the
 * session cookie on the upgrade, addressed by the page's own host), each with the two
 * subscriptions a chat screen holds: the messages and the unread badge; optionally, for staff, the
 * console frame's sidebar counts as well.
 */
import { createClient, type Client } from "graphql-ws";
import { MESSAGE_SUBSCRIPTION as STAFF_MESSAGES } from "../../site/src/admin/features/reports/detail/chat-api.ts";
import { UNREAD_SUBSCRIPTION as STAFF_UNREAD } from "../../site/src/admin/features/reports/detail/detail-api.ts";
import { GRAPHQL_PATH } from "./lantern.ts";

// The reporter's follow-up area keeps its documents to itself (site/src/islands/report-area/
// conversation.ts and use-unread-count.ts); these are copies, word for word.
const REPORTER_MESSAGE_FIELDS = "id type message from createdAt read image { fileURL }";
const REPORTER_MESSAGES = `subscription ReportConversationMessage { reportConversationMessage { action message { ${REPORTER_MESSAGE_FIELDS} } } }`;
const REPORTER_UNREAD = "subscription ReporterUnreadMessages { reportConversationTotalUnreadMessages }";
/** Likewise from site/src/admin/shell/shell-data.ts: the sidebar's live counts, on every console page. */
const SIDEBAR_COUNTS = `subscription ShellOrganisationUserStatsLive($organisationID: ID) {
  organisationUserStats(organisationID: $organisationID) { unassignedReports unreadMessages } }`;

/** As site/src/lib/live.ts: the client pings every 10 s (the server does too). */
const KEEP_ALIVE_MS = 10_000;
/** Sockets opened at once; a thousand SYNs in one burst would only measure the listen backlog. */
const OPEN_BATCH = 50;
const READY_TIMEOUT_MS = 60_000;

export type Side = "reporter" | "staff";

export interface ChatSocketSpec {
  side: Side;
  /** The conversation's report (staff name it; a reporter's session already points at it). */
  submissionId: string;
  /** `name=value` cookie pair sent with the upgrade. */
  cookie: string;
  /** The Host the page is on: the organisation's for reporters, the console's for staff. */
  host: string;
  /** Staff only: the socket also holds the console frame's sidebar counts, as every console page does. */
  sidebar?: boolean;
}

export interface ChatEvent {
  side: Side;
  submissionId: string;
  action: string;
  text: string;
}

export interface OpenSockets {
  clients: Client[];
  /** Sockets that closed or failed after they were ready (a healthy run has none). */
  dropped(): number;
  firstProblem(): string | null;
  close(): Promise<void>;
}

function cookieWebSocket(headers: Record<string, string>): typeof WebSocket {
  return class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      // Bun's WebSocket takes request headers; a browser sends the cookie and Host by itself.
      super(url, { protocols, headers } as unknown as string[]);
    }
  };
}

/**
 * Opens every socket, OPEN_BATCH at a time, and resolves once each one's unread subscription has
 * answered its first count: by then the server has also taken the messages subscription sent
 * before it on the same socket.
 */
export async function openChatSockets(base: string, specs: ChatSocketSpec[], onEvent: (event: ChatEvent) => void): Promise<OpenSockets> {
  const url = `${base.replace(/^http/, "ws")}${GRAPHQL_PATH}`;
  const clients: Client[] = [];
  let ready = 0;
  let dropped = 0;
  let problem: string | null = null;
  /** Set once the bench closes them itself, so those closes are not counted as drops. */
  let closing = false;
  const fail = (what: string, error: unknown) => {
    problem ??= `${what}: ${error instanceof Error ? error.message : JSON.stringify(error)}`;
  };
  const open = (spec: ChatSocketSpec) =>
    new Promise<void>((resolve, reject) => {
      let isReady = false;
      const client = createClient({
        url,
        webSocketImpl: cookieWebSocket({ Host: spec.host, Cookie: spec.cookie }),
        lazy: true,
        keepAlive: KEEP_ALIVE_MS,
        retryAttempts: 0,
        on: {
          closed: (event) => {
            if (closing) return;
            if (isReady) {
              dropped += 1;
              fail(`a ${spec.side} socket closed`, (event as CloseEvent).code);
            } else reject(new Error(`a ${spec.side} socket closed before it was ready (code ${(event as CloseEvent).code})`));
          },
        },
      });
      clients.push(client);
      const staff = spec.side === "staff";
      const variables = staff ? { id: spec.submissionId } : {};
      client.subscribe<{ reportConversationMessage: { action: string; message: { message: string } } }>(
        { query: staff ? STAFF_MESSAGES : REPORTER_MESSAGES, variables },
        {
          next: (result) => {
            const event = result.data?.reportConversationMessage;
            if (event) onEvent({ side: spec.side, submissionId: spec.submissionId, action: event.action, text: event.message.message });
            else if (result.errors) fail(`a ${spec.side} messages subscription`, result.errors[0]?.message);
          },
          error: (error) => (isReady ? fail(`a ${spec.side} messages subscription`, error) : reject(error instanceof Error ? error : new Error(JSON.stringify(error)))),
          complete: () => {},
        },
      );
      if (staff && spec.sidebar) {
        const sidebarVariables = { organisationID: null };
        client.subscribe({ query: SIDEBAR_COUNTS, variables: sidebarVariables }, { next: () => {}, error: (error) => fail("a sidebar subscription", error), complete: () => {} });
      }
      client.subscribe<{ reportConversationTotalUnreadMessages: number }>(
        { query: staff ? STAFF_UNREAD : REPORTER_UNREAD, variables },
        {
          next: (result) => {
            if (result.errors?.length) return reject(new Error(`the unread subscription answered: ${result.errors[0]?.message}`));
            if (!isReady) {
              isReady = true;
              ready += 1;
              resolve();
            }
          },
          error: (error) => (isReady ? fail(`a ${spec.side} unread subscription`, error) : reject(error instanceof Error ? error : new Error(JSON.stringify(error)))),
          complete: () => {},
        },
      );
    });

  const sockets: OpenSockets = {
    clients,
    dropped: () => dropped,
    firstProblem: () => problem,
    close: async () => {
      closing = true;
      await Promise.all(clients.map((client) => client.dispose()));
    },
  };
  try {
    for (let start = 0; start < specs.length; start += OPEN_BATCH) {
      const batch = Promise.all(specs.slice(start, start + OPEN_BATCH).map(open));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`only ${ready} of ${specs.length} sockets were ready after ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
      });
      await Promise.race([batch, timeout]).finally(() => clearTimeout(timer));
    }
  } catch (error) {
    await sockets.close();
    throw error;
  }
  return sockets;
}
