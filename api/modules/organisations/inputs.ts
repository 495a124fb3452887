import * as v from "valibot";
import { FONT_FAMILIES, INTERVAL_UNITS } from "../../shared/enums.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";

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
  staleMessageIntervalNumber: v.optional(
    v.pipe(v.number("Invalid Interval Number given"), v.integer("Invalid Interval Number given"), v.minValue(1, "Interval Number must be greater than 0"), v.maxValue(10000)),
  ),
  staleMessageIntervalUnit: v.optional(v.picklist(INTERVAL_UNITS)),
  generalEnquiryEnabled: v.optional(v.boolean()),
  generalEnquiryLabel: v.optional(requiredText(TEXT_LIMITS.enquiryLabel.max)),
  generalEnquiryWelcomeMessageContent: v.optional(text(TEXT_LIMITS.welcomeMessage.max)),
  allowGeneralEnquiryChatFileUploads: v.optional(v.boolean()),
  portalWelcomeMessageEnabled: v.optional(v.boolean()),
  portalWelcomeMessageContent: v.optional(text(TEXT_LIMITS.welcomeMessage.max)),
  showLogoOnReportForms: v.optional(v.boolean()),
  logoPaddingPixels: v.optional(v.pipe(v.number(), v.integer(), v.minValue(10), v.maxValue(25))),
  logoWidthPixels: v.optional(v.pipe(v.number(), v.integer(), v.minValue(50), v.maxValue(250))),
  fontFamily: v.optional(v.picklist(FONT_FAMILIES)),
});

export type OrganisationSettings = v.InferOutput<typeof OrganisationSettingsInput>;

export const SUPER_ADMIN_ONLY_SETTINGS = ["name", "openSeatNumber", "enableEmailAuth2FA", "enableSSO"] as const satisfies readonly (keyof OrganisationSettings)[];
