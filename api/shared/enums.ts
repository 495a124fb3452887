/**
 * The spec's enumerations, spelt exactly as the spec spells them. Pure data: shared by the
 * database schema, the GraphQL schema, the server's validation and the site.
 */

export const ROLE_NAMES = ["SUPER_ADMIN", "ORGANISATION_OWNER", "ORGANISATION_ADMIN", "MEMBER", "GUEST_MEMBER"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const FORM_TYPES = ["Custom", "Enquiry"] as const;
export type FormType = (typeof FORM_TYPES)[number];

export const FORM_STATUSES = ["Draft", "Active"] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export const BUILD_PUBLISH_STATES = ["Unpublished", "Published", "Outdated"] as const;
export type BuildPublishState = (typeof BUILD_PUBLISH_STATES)[number];

export const SUBMISSION_STATUSES = [
  "Draft",
  "New",
  "Assigned",
  "Closed",
  "Rejected",
  "Completed",
  "Investigated",
  "NotInvestigated",
  "Substantiated",
  "NotSubstantiated",
  "ActionTaken",
  "NoActionTaken",
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Statuses after which a report counts as closed (spec, admin console section 4). */
export const TERMINAL_SUBMISSION_STATUSES = [
  "Closed",
  "Completed",
  "Rejected",
  "Investigated",
  "NotInvestigated",
  "Substantiated",
  "NotSubstantiated",
  "ActionTaken",
  "NoActionTaken",
] as const satisfies readonly SubmissionStatus[];

/** The outcomes the close dialog offers, Completed first as the default. */
export const CLOSE_OUTCOMES = [
  "Completed",
  "Rejected",
  "Investigated",
  "NotInvestigated",
  "Substantiated",
  "NotSubstantiated",
  "ActionTaken",
  "NoActionTaken",
] as const satisfies readonly SubmissionStatus[];

export const PRIORITIES = ["Low", "Medium", "High"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const WIDGET_TYPES = ["Section", "ShortText", "LongText", "Select", "Checkbox", "Radio", "Date", "Note"] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export const CONDITION_MATCH_TYPES = ["All", "Any"] as const;
export type ConditionMatchType = (typeof CONDITION_MATCH_TYPES)[number];

export const MESSAGE_TYPES = ["Text", "Image", "System"] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const MESSAGE_SENDERS = ["Guest", "User"] as const;
export type MessageSender = (typeof MESSAGE_SENDERS)[number];

export const MESSAGE_STATES = ["New", "Seen"] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

export const PRESENCE_STATUSES = ["Offline", "Online", "Typing"] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

export const INVITE_STATUSES = ["Invited", "Onboarded"] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const INVITE_TYPES = ["Organisation", "Member"] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

export const GUEST_INVITE_STATUSES = ["Opened", "Approved", "Rejected", "Aborted"] as const;
export type GuestInviteStatus = (typeof GUEST_INVITE_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ["Active", "Cancelled", "Incomplete", "IncompleteExpired", "PastDue", "Trialing", "Unpaid", "Unknown"] as const;
export const INVOICE_STATUSES = ["Draft", "Open", "Paid", "Uncollectible", "Void", "Unknown"] as const;

export const INTERVAL_UNITS = ["Hour", "Day"] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export const PERIODS = ["Day", "Week", "Month", "Year"] as const;

export const FONT_FAMILIES = ["Helvetica Neue", "Roboto", "Montserrat"] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

export const CONTENT_FORMATS = ["HTML", "Text"] as const;
export const FORM_AUDIT_ACTIONS = ["Publish", "Unpublish", "Update", "Secure"] as const;
export const VALIDITIES = ["Valid", "Invalid"] as const;

export const LIST_FILTERS = ["All", "Active", "Archived"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

export const REPORT_LIST_FILTERS = [
  ...LIST_FILTERS,
  "MyReports",
  "ClosedReports",
  "CompletedReports",
  "RejectedReports",
  "InvestigatedReports",
  "NotInvestigatedReports",
  "SubstantiatedReports",
  "NotSubstantiatedReports",
  "ActionTakenReports",
  "NoActionTakenReports",
] as const;
export type ReportListFilter = (typeof REPORT_LIST_FILTERS)[number];

export const SORT_KEYS = ["DateCreated", "DateUpdated", "Alphabetical"] as const;
export const CONVERSATION_SORT_KEYS = ["DateCreated", "DateLastMessage", "Priority"] as const;
export const SORT_DIRECTIONS = ["Ascending", "Descending"] as const;


/** What a stored blob is for; decides who may read it. */
export const BLOB_PURPOSES = ["Attachment", "ChatImage", "OrganisationLogo", "Avatar", "ResourceDocument"] as const;
export type BlobPurpose = (typeof BLOB_PURPOSES)[number];

/** Single-use tokens mailed to staff. */
export const AUTH_TOKEN_PURPOSES = ["VerifyEmail", "ResetPassword", "MagicLogin"] as const;
export type AuthTokenPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];
