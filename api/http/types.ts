import type { Actor, HostKind, HostOrganisation, Services } from "../context.ts";

/** What middleware resolves once per request, for the handlers after it. */
export interface RequestState {
  actor: Actor;
  host: { kind: HostKind; organisation: HostOrganisation | null; slug: string | null };
}

export type AppEnv = { Variables: { state: RequestState; services: Services } };
