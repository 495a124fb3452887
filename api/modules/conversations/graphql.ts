import { builder } from "../../graphql/builder.ts";
import { MESSAGE_SENDERS, MESSAGE_TYPES } from "../../shared/enums.ts";
import { conversationFor } from "./access.ts";
import { listMessages, messageById, messageTopic, readMessages, unreadCount, type MessageView } from "./messages.ts";
import { sendMessage } from "./send.ts";

const MessageTypeEnum = builder.enumType("MessageType", { values: MESSAGE_TYPES });
const MessageSenderEnum = builder.enumType("MessageSender", { values: MESSAGE_SENDERS });

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

builder.queryFields((t) => ({
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
    resolve: (_root, args, ctx) => readMessages(ctx, args.reportSubmissionID ? String(args.reportSubmissionID) : null, args.messageIDs.map(String)),
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
}));
