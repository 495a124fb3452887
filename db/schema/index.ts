// The one list of tables, read by drizzle-kit, defineRelations and the Pothos plugin.
export * from "./enums.ts";
export * from "./blobs.ts";
export * from "./identity.ts";
export * from "./email-changes.ts";
export * from "./onboarding.ts";
export * from "./forms.ts";
export * from "./submissions.ts";
export * from "./conversations.ts";
export * from "./content.ts";
export * from "./abuse.ts";
export * from "./plans.ts";
export * from "./translations.ts";
export * from "./keys.ts";
export * from "./saved-replies.ts";
export * from "./jobs.ts";
