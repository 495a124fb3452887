/** The product's own name as a subdomain: never an organisation's. */
export const PRODUCT_SLUG = "lantern";

/** Subdomains that never name an organisation: the app, the global report login, and the product's name. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(["app", "login", PRODUCT_SLUG]);
