/**
 * What of an audit entry's metadata a reader of the log may see. Writers record what helps an
 * operator (note ids, e-mail addresses a report was forwarded to, internal references, event
 * ids); the log shows only the spec's keys and a few per-action values known to be harmless to
 * anyone allowed to read the log. Anything a future writer adds stays hidden until it is listed
 * here, so a new audit entry can never leak by accident.
 */

/** The keys the spec names for audit metadata (admin console, section 3). */
const SPEC_KEYS = ["name", "first_name", "last_name", "archived", "report_form_id"] as const;

/** Written on every entry of a user when they are deleted, so the log can say 'Deleted user' (decision 034). */
export const DELETED_USER_KEY = "deleted_user";

/**
 * Values worth showing with some actions: status and priority changes (enum values), tag names
 * (shown on the report anyway), whether an assignment made someone the owner, export counts and
 * which organisation settings changed. Internal references are left out on purpose: super admins
 * must never see them (spec section 6), and the log must not become a way round that.
 */
const ACTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  Close: ["from", "to"],
  Open: ["from", "to"],
  SetPriority: ["from", "to"],
  AssignTags: ["tags"],
  AssignUser: ["owner"],
  JoinTeam: ["owner"],
  ExportAll: ["count"],
  ExportCsv: ["count"],
  Update: ["fields"],
};

/**
 * Values shown only for one kind of object: a tag's old and new names (tag names are shown on every
 * report they mark, so the log reveals nothing by naming them).
 */
const OBJECT_ACTION_KEYS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  Tag: { Update: ["from", "to"] },
};

type Shown = string | number | boolean | null | string[];

function shownValue(value: unknown): Shown | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return undefined;
}

export function visibleMetadata(action: string, metadata: Record<string, unknown> | null | undefined, objectType?: string | null): Record<string, Shown> {
  const shown: Record<string, Shown> = {};
  if (!metadata || typeof metadata !== "object") return shown;
  const objectKeys = objectType ? (OBJECT_ACTION_KEYS[objectType]?.[action] ?? []) : [];
  for (const key of [...SPEC_KEYS, DELETED_USER_KEY, ...(ACTION_KEYS[action] ?? []), ...objectKeys]) {
    if (!Object.hasOwn(metadata, key)) continue;
    const value = shownValue(metadata[key]);
    if (value !== undefined) shown[key] = value;
  }
  return shown;
}
