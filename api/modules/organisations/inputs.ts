import * as v from "valibot";
import { sanitiseRichText } from "../../lib/rich-text-sanitiser.ts";
import { FONT_FAMILIES, INTERVAL_UNITS } from "../../shared/enums.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { RETENTION_MONTHS_INVALID, RETENTION_MONTHS_MAX, RETENTION_MONTHS_MIN } from "../../shared/retention.ts";
import { LanguageCode } from "../translation-review/language-code.ts";
import { ProofFields } from "../auth/reauthentication.ts";

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `Must be at most ${max} characters`));
const requiredText = (max: number) => v.pipe(text(max), v.nonEmpty("Required"));

/** Settings an owner or admin may change. Name, seats and sign-in methods are the super admin's. */
export const OrganisationSettingsInput = v.object({
  name: v.optional(requiredText(TEXT_LIMITS.organisationName.max)),
  abn: v.optional(text(TEXT_LIMITS.abn.max)),
  openSeatNumber: v.optional(v.pipe(v.number("Invalid Interval Number given"), v.integer("Must be a whole number"), v.minValue(0), v.maxValue(100000))),
  enableEmailAuth2FA: v.optional(v.boolean()),
  enableSSO: v.optional(v.boolean()),
  enableFormTranslations: v.optional(v.boolean()),
  // The super admin's own proof, for a change of how the organisation's accounts sign in (decision 061).
  ownPassword: ProofFields.password,
  ownPasscode: ProofFields.passcode,
  ownRecoveryCode: ProofFields.recoveryCode,
  /** The language the organisation writes its forms in: what translations start from. */
  formLanguage: v.optional(LanguageCode),
  staleMessageIntervalNumber: v.optional(
    v.pipe(v.number("Invalid Interval Number given"), v.integer("Invalid Interval Number given"), v.minValue(1, "Interval Number must be greater than 0"), v.maxValue(10000)),
  ),
  staleMessageIntervalUnit: v.optional(v.picklist(INTERVAL_UNITS)),
  generalEnquiryEnabled: v.optional(v.boolean()),
  /** Acknowledge within 7 days, feedback within 3 months (decision 050). */
  legalClocksEnabled: v.optional(v.boolean()),
  /** Retention (decision 052): closed reports deleted this many months after closing; null turns it off. */
  retentionMonths: v.optional(
    v.nullable(v.pipe(v.number(RETENTION_MONTHS_INVALID), v.integer(RETENTION_MONTHS_INVALID), v.minValue(RETENTION_MONTHS_MIN, RETENTION_MONTHS_INVALID), v.maxValue(RETENTION_MONTHS_MAX, RETENTION_MONTHS_INVALID))),
  ),
  generalEnquiryLabel: v.optional(requiredText(TEXT_LIMITS.enquiryLabel.max)),
  generalEnquiryWelcomeMessageContent: v.optional(text(TEXT_LIMITS.welcomeMessage.max)),
  allowGeneralEnquiryChatFileUploads: v.optional(v.boolean()),
  portalWelcomeMessageEnabled: v.optional(v.boolean()),
  // Shown as HTML on the public page: only the rich-text editor's allowlisted markup is kept.
  portalWelcomeMessageContent: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.welcomeMessage.max, `Must be at most ${TEXT_LIMITS.welcomeMessage.max} characters`), v.transform(sanitiseRichText))),
  showLogoOnReportForms: v.optional(v.boolean()),
  logoPaddingPixels: v.optional(v.pipe(v.number(), v.integer(), v.minValue(10), v.maxValue(25))),
  logoWidthPixels: v.optional(v.pipe(v.number(), v.integer(), v.minValue(50), v.maxValue(250))),
  fontFamily: v.optional(v.picklist(FONT_FAMILIES)),
  /** '-' removes the logo; the current logo's id keeps it. A new logo comes through organisationUpdateLogo. */
  logoBlobID: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(TEXT_LIMITS.id.max, "Upload Failed"))),
});

export type OrganisationSettings = v.InferOutput<typeof OrganisationSettingsInput>;

/** Spec §6: the name, seats and sign-in methods are the super admin's; form translations too (it is a paid feature of the plan). */
export const SUPER_ADMIN_ONLY_SETTINGS = ["name", "openSeatNumber", "enableEmailAuth2FA", "enableSSO", "enableFormTranslations"] as const satisfies readonly (keyof OrganisationSettings)[];

export const REMOVE_LOGO = "-";

/** organisationCreate [input: name, abn]: both required (spec §5). */
export const OrganisationCreateInput = v.object({
  name: requiredText(TEXT_LIMITS.organisationName.max),
  abn: requiredText(TEXT_LIMITS.abn.max),
});
export type OrganisationCreate = v.InferOutput<typeof OrganisationCreateInput>;
