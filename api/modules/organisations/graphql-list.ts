import { builder } from "../../graphql/builder.ts";
import { OrganisationType } from "./graphql.ts";
import { listOrganisations } from "./list.ts";

const OrganisationListType = builder.objectRef<{ total: number; ids: string[] }>("OrganisationList").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    list: t.drizzleField({
      type: [OrganisationType],
      resolve: async (query, parent, _args, ctx) => {
        if (parent.ids.length === 0) return [];
        const rows = await ctx.db.query.organisations.findMany(query({ where: { id: { in: parent.ids } } }));
        const order = new Map(parent.ids.map((id, index) => [id, index]));
        const position = (row: unknown) => order.get((row as { id: string }).id) ?? 0;
        return rows.sort((a, b) => position(a) - position(b));
      },
    }),
  }),
});

builder.queryFields((t) => ({
  organisations: t.field({
    type: OrganisationListType,
    description: "Every organisation for a super admin; for anyone else, the organisations they are a guest of.",
    args: { search: t.arg.string(), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => listOrganisations(ctx, args),
  }),
}));
