import { builder } from "./builder.ts";
// Each module registers its types and fields on the builder when imported.
import "../modules/account-access/graphql.ts";
import "../modules/audit/graphql.ts";
import "../modules/auth/graphql.ts";
import "../modules/auth/two-factor/graphql.ts";
import "../modules/conversations/graphql.ts";
import "../modules/forms/graphql.ts";
import "../modules/form-templates/graphql.ts";
import "../modules/organisations/graphql.ts";
import "../modules/organisations/graphql-list.ts";
import "../modules/organisations/graphql-public.ts";
import "../modules/profile/graphql.ts";
import "../modules/reporting/graphql.ts";
import "../modules/resources/graphql.ts";
import "../modules/reports/graphql-queries.ts";
import "../modules/reports/graphql-life.ts";
import "../modules/reports/graphql-team.ts";
import "../modules/users/graphql.ts";
import "../modules/invites/graphql.ts";
import "../modules/subscribers/graphql.ts";
import "../modules/tags/graphql.ts";
import "../modules/onboarding/graphql.ts";
import "../modules/plans/graphql.ts";
import "../modules/users/graphql-admin.ts";
import "../modules/translation/graphql.ts";

export const schema = builder.toSchema();
