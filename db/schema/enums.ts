import { pgEnum } from "drizzle-orm/pg-core";
import {
  AUTH_TOKEN_PURPOSES,
  BLOB_PURPOSES,
  CONDITION_MATCH_TYPES,
  FONT_FAMILIES,
  FORM_STATUSES,
  FORM_TYPES,
  GUEST_INVITE_STATUSES,
  INTERVAL_UNITS,
  INVITE_STATUSES,
  INVITE_TYPES,
  MESSAGE_SENDERS,
  MESSAGE_STATES,
  MESSAGE_TYPES,
  PRESENCE_STATUSES,
  PRIORITIES,
  ROLE_NAMES,
  SUBMISSION_STATUSES,
  WIDGET_TYPES,
} from "../../api/shared/enums.ts";
import { AUDIT_OBJECT_TYPES } from "../../api/shared/audit-object-types.ts";

export const roleName = pgEnum("role_name", ROLE_NAMES);
export const formType = pgEnum("form_type", FORM_TYPES);
export const formStatus = pgEnum("form_status", FORM_STATUSES);
export const submissionStatus = pgEnum("submission_status", SUBMISSION_STATUSES);
export const priority = pgEnum("priority", PRIORITIES);
export const widgetType = pgEnum("widget_type", WIDGET_TYPES);
export const conditionMatchType = pgEnum("condition_match_type", CONDITION_MATCH_TYPES);
export const messageType = pgEnum("message_type", MESSAGE_TYPES);
export const messageSender = pgEnum("message_sender", MESSAGE_SENDERS);
export const messageState = pgEnum("message_state", MESSAGE_STATES);
export const presenceStatus = pgEnum("presence_status", PRESENCE_STATUSES);
export const inviteStatus = pgEnum("invite_status", INVITE_STATUSES);
export const inviteType = pgEnum("invite_type", INVITE_TYPES);
export const guestInviteStatus = pgEnum("guest_invite_status", GUEST_INVITE_STATUSES);
export const intervalUnit = pgEnum("interval_unit", INTERVAL_UNITS);
export const fontFamily = pgEnum("font_family", FONT_FAMILIES);
export const auditObjectType = pgEnum("audit_object_type", AUDIT_OBJECT_TYPES);
export const blobPurpose = pgEnum("blob_purpose", BLOB_PURPOSES);
export const authTokenPurpose = pgEnum("auth_token_purpose", AUTH_TOKEN_PURPOSES);
