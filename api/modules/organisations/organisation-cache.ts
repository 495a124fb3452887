import { holdingAny, InvalidatedCache } from "../../lib/invalidated-cache.ts";
import type { Invalidator } from "../../lib/invalidation.ts";
import { MAX_AGE_MS } from "../../lib/session-cache.ts";
import type { PublicOrganisation } from "./public.ts";

/**
 * Active organisations by slug, as every request on an organisation's host needs them (decision 027).
 * A change to an organisation (its slug, archive state, logo, settings) announces its id, which
 * drops the copy on every instance before the change answers. Only organisations that exist and
 * are active are stored: a flood of made-up hosts costs a query each and leaves nothing here.
 */
const MAX_ENTRIES = 10_000;

export class OrganisationCache extends InvalidatedCache<PublicOrganisation> {
  constructor(invalidator: Invalidator, options: { now?: () => number } = {}) {
    super(invalidator, {
      maxEntries: MAX_ENTRIES,
      maxAgeMs: MAX_AGE_MS,
      endsCopies: (event) => holdingAny(event.organisationIds, (organisation: PublicOrganisation) => organisation.id),
      ...options,
    });
  }
}
