import { builder } from "../../graphql/builder.ts";
import { OrganisationType } from "./graphql.ts";
import { ListFilterEnum } from "../tags/graphql.ts";
import { SortDirectionEnum } from "../reports/graphql-types.ts";
import { listOrganisations, ORGANISATION_SORT_KEYS } from "./list.ts";

const OrganisationSortKeyEnum = builder.enumType("OrganisationSortKey", { values: ORGANISATION_SORT_KEYS });

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
    args: {
      search: t.arg.string(),
      filter: t.arg({ type: ListFilterEnum }),
      sortBy: t.arg({ type: OrganisationSortKeyEnum }),
      sortDir: t.arg({ type: SortDirectionEnum }),
      limit: t.arg.int(),
      offset: t.arg.int(),
    },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => listOrganisations(ctx, args),
  }),
}));
