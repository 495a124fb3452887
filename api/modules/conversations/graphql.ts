import { Repeater } from "graphql-yoga";
import { builder } from "../../graphql/builder.ts";
import { CONVERSATION_SORT_KEYS, MESSAGE_SENDERS, MESSAGE_TYPES, PRESENCE_STATUSES } from "../../shared/enums.ts";
import { PriorityEnum, ReportSubmissionType, SortDirectionEnum } from "../reports/graphql-types.ts";
import { conversationFor } from "./access.ts";
import { listConversations, type ConversationItem, type LastMessageView } from "./list.ts";
import { conversationEvents, type ConversationEvent } from "./live-events.ts";
import { listMessages, messageById, messageTopic, readMessages, unreadCount, type MessageView } from "./messages.ts";
import { presenceFromEvent, presenceTopic, presenceWatch, updateUserStatus, type PresenceEvent, type PresenceView } from "./presence.ts";
import { sendMessage } from "./send.ts";
import { announceRead } from "./write.ts";

const MessageTypeEnum = builder.enumType("MessageType", { values: MESSAGE_TYPES });
const MessageSenderEnum = builder.enumType("MessageSender", { values: MESSAGE_SENDERS });
const PresenceStatusEnum = builder.enumType("PresenceStatus", { values: PRESENCE_STATUSES });
const ConversationSortKeyEnum = builder.enumType("ConversationSortKey", { values: CONVERSATION_SORT_KEYS });

const idOrNull = (id: string | number | null | undefined) => (id === null || id === undefined ? null : String(id));

const MessageUserType = builder.objectRef<NonNullable<MessageView["fromUser"]>>("MessageUser").implement({
  fields: (t) => ({ id: t.exposeID("id"), firstName: t.exposeString("firstName"), lastName: t.exposeString("lastName") }),
});

const ImageType = builder.objectRef<{ fileURL: string }>("MessageImage").implement({ fields: (t) => ({ fileURL: t.exposeString("fileURL") }) });

export const MessageType = builder.objectRef<MessageView>("ReportConversationMessage").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.expose("type", { type: MessageTypeEnum }),
    message: t.exposeString("message"),
    from: t.expose("from", { type: MessageSenderEnum }),
    fromUser: t.expose("fromUser", { type: MessageUserType, nullable: true }),
    image: t.field({ type: ImageType, nullable: true, resolve: (m) => (m.imageURL ? { fileURL: m.imageURL } : null) }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    read: t.exposeBoolean("read"),
    readAt: t.expose("readAt", { type: "DateTime", nullable: true }),
  }),
});

const MessagePageType = builder.objectRef<{ messages: MessageView[]; hasMore: boolean }>("ReportConversationMessagePage").implement({
  fields: (t) => ({ messages: t.expose("messages", { type: [MessageType] }), hasMore: t.exposeBoolean("hasMore") }),
});

const MessageEventType = builder.objectRef<{ action: string; message: MessageView }>("ReportConversationMessageEvent").implement({
  fields: (t) => ({ action: t.exposeString("action", { description: "new or seen" }), message: t.expose("message", { type: MessageType }) }),
});

const SendMessageInput = builder.inputType("ReportConversationMessageInput", {
  fields: (t) => ({
    type: t.field({ type: MessageTypeEnum, required: true }),
    message: t.string({ required: false, description: "The text of a Text message; an optional caption of an Image." }),
    imageFile: t.field({ type: "File", required: false, description: "The picture of an Image message, sent as a GraphQL multipart request." }),
  }),
});

const LastMessageType = builder.objectRef<LastMessageView>("ReportConversationLastMessage").implement({
  fields: (t) => ({
    type: t.expose("type", { type: MessageTypeEnum }),
    message: t.exposeString("message"),
    from: t.expose("from", { type: MessageSenderEnum }),
    fromUser: t.expose("fromUser", { type: MessageUserType, nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const ConversationItemType = builder.objectRef<ConversationItem>("ReportConversationItem").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    submission: t.expose("submission", { type: ReportSubmissionType }),
    lastMessage: t.expose("lastMessage", { type: LastMessageType, nullable: true }),
    otherUserStatus: t.expose("otherUserStatus", { type: PresenceStatusEnum, description: "The reporter's presence." }),
    lastSeenAt: t.expose("lastSeenAt", { type: "DateTime", nullable: true }),
    lastTypedAt: t.expose("lastTypedAt", { type: "DateTime", nullable: true }),
    concluded: t.exposeBoolean("concluded"),
    closed: t.exposeBoolean("closed"),
    unreadMessages: t.exposeInt("unreadMessages"),
  }),
});

const ConversationListType = builder.objectRef<{ total: number; list: ConversationItem[] }>("ReportConversationList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ConversationItemType] }) }),
});

const PresenceType = builder.objectRef<PresenceView>("ReportConversationPresence").implement({
  description: "The other side's presence: staff see the reporter's, the reporter sees the staff side's.",
  fields: (t) => ({
    otherUserStatus: t.expose("otherUserStatus", { type: PresenceStatusEnum }),
    lastSeenAt: t.expose("lastSeenAt", { type: "DateTime", nullable: true }),
    lastTypedAt: t.expose("lastTypedAt", { type: "DateTime", nullable: true }),
  }),
});

const ConversationEventType = builder.objectRef<ConversationEvent>("ReportConversationEvent").implement({
  fields: (t) => ({ submissionId: t.exposeID("submissionId"), action: t.exposeString("action", { description: "message, presence or updated" }) }),
});

builder.queryFields((t) => ({
  reportConversations: t.field({
    type: ConversationListType,
    args: {
      search: t.arg.string(),
      organisationID: t.arg.id(),
      priority: t.arg({ type: PriorityEnum }),
      sortBy: t.arg({ type: ConversationSortKeyEnum }),
      sortDir: t.arg({ type: SortDirectionEnum }),
      limit: t.arg.int(),
      offset: t.arg.int(),
    },
    authScopes: { permission: "ReportConversationList" },
    resolve: (_root, args, ctx) => listConversations(ctx, { ...args, organisationID: idOrNull(args.organisationID) }),
  }),
  reportConversationMessages: t.field({
    type: MessagePageType,
    description: "A page of a report's chat, oldest first. Reporters always get their own report's.",
    args: { reportSubmissionID: t.arg.id(), last: t.arg.int(), before: t.arg.id() },
    resolve: (_root, args, ctx) =>
      listMessages(ctx, { reportSubmissionID: args.reportSubmissionID ? String(args.reportSubmissionID) : null, last: args.last, before: args.before ? String(args.before) : null }),
  }),
}));

builder.mutationFields((t) => ({
  reportConversationSendMessage: t.field({
    type: MessageType,
    args: { reportSubmissionID: t.arg.id(), input: t.arg({ type: SendMessageInput, required: true }) },
    resolve: (_root, args, ctx) => sendMessage(ctx, args.reportSubmissionID ? String(args.reportSubmissionID) : null, args.input),
  }),
  reportConversationReadMessages: t.int({
    args: { reportSubmissionID: t.arg.id(), messageIDs: t.arg.idList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = idOrNull(args.reportSubmissionID);
      const changed = await readMessages(ctx, id, args.messageIDs.map(String));
      // Only staff reading changes what the organisation's views count as unread.
      if (changed > 0 && id && ctx.actor.kind === "staff") await announceRead(ctx, id);
      return changed;
    },
  }),
  reportConversationUpdateUserStatus: t.boolean({
    description: "Sets the caller's presence in a report's chat: a reporter their own, staff on the report's team the staff side's.",
    args: { reportSubmissionID: t.arg.id(), status: t.arg({ type: PresenceStatusEnum, required: true }) },
    resolve: (_root, args, ctx) => updateUserStatus(ctx, idOrNull(args.reportSubmissionID), args.status),
  }),
}));

builder.subscriptionFields((t) => ({
  reportConversationMessage: t.field({
    type: MessageEventType,
    args: { reportSubmissionID: t.arg.id() },
    subscribe: async (_root, args, ctx) => {
      const access = await conversationFor(ctx, ctx.db, args.reportSubmissionID ? String(args.reportSubmissionID) : null, "ReportConversationRead");
      return ctx.services.pubsub.iterate(messageTopic(access.submission.id));
    },
    resolve: async (event, _args, ctx) => {
      const payload = event as { action: string; messageId: string };
      const message = await messageById(ctx, payload.messageId);
      if (!message) throw new Error("Message vanished");
      return { action: payload.action, message };
    },
  }),
  reportConversationTotalUnreadMessages: t.int({
    args: { reportSubmissionID: t.arg.id() },
    subscribe: async function* (_root, args, ctx) {
      const id = args.reportSubmissionID ? String(args.reportSubmissionID) : null;
      const access = await conversationFor(ctx, ctx.db, id, "ReportConversationRead");
      const events = ctx.services.pubsub.iterate(messageTopic(access.submission.id));
      try {
        yield {};
        for await (const event of events) yield event;
      } finally {
        await events.return?.();
      }
    },
    resolve: (_event, args, ctx) => unreadCount(ctx, args.reportSubmissionID ? String(args.reportSubmissionID) : null),
  }),
  reportConversation: t.field({
    type: PresenceType,
    description: "The other side's presence now, then on every change.",
    args: { reportSubmissionID: t.arg.id() },
    subscribe: async (_root, args, ctx) => {
      const watch = await presenceWatch(ctx, idOrNull(args.reportSubmissionID));
      return new Repeater<PresenceView>(async (push, stop) => {
        const off = ctx.services.pubsub.subscribe(presenceTopic(watch.submissionId), (payload) => {
          const event = payload as unknown as PresenceEvent;
          if (event.side === watch.other) void push(presenceFromEvent(event));
        });
        void push(watch.current);
        await stop;
        off();
      });
    },
    resolve: (presence) => presence,
  }),
  reportConversations: t.field({
    type: ConversationEventType,
    description: "Which conversation changed, so the Conversations page can refresh its row.",
    args: { organisationID: t.arg.id() },
    authScopes: { permission: "ReportConversationList" },
    // Each event is checked against the subscriber's access as it is now, e.g. a member's team.
    subscribe: (_root, args, ctx) => conversationEvents(ctx, idOrNull(args.organisationID)),
    resolve: (event) => event,
  }),
}));
