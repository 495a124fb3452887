import { builder } from "../../graphql/builder.ts";
import { requireStaff } from "../access/policy.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "./events.ts";

builder.subscriptionFields((t) => ({
  organisationUserDisconnect: t.boolean({
    description: "Fires when this session is signed out or the user loses access; the console then clears its user state.",
    authScopes: { staff: true },
    subscribe: (_root, _args, ctx) => {
      const actor = requireStaff(ctx);
      const events = ctx.services.pubsub.iterate(userDisconnectTopic(actor.userId));
      return filterAsync(events, (event) => {
        const { sessionTokenHash } = event as UserDisconnectEvent;
        return !sessionTokenHash || sessionTokenHash === actor.sessionTokenHash;
      });
    },
    resolve: () => true,
  }),
}));

async function* filterAsync<T>(source: AsyncIterableIterator<T>, keep: (value: T) => boolean): AsyncGenerator<T> {
  try {
    for await (const value of source) if (keep(value)) yield value;
  } finally {
    await source.return?.();
  }
}
