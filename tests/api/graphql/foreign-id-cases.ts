/**
 * Every id a mutation takes, aimed at another organisation's object (organisation B, the demo)
 * by someone of organisation A (Northwind), with the rest of the input wrong. The answer must be
 * the not-found of an id that names nothing (decision 065). Positions are named as the schema
 * walk names them: `mutation(argument.inputField)`.
 */

/** Ids of B's objects made before the cases run, and of A's own where a case aims one id of several at B. */
export type World = Record<string, string>;

/** Who sends the case: A's owner, A's guest member, the super admin, or reporters (see foreign-ids.test.ts). */
export type CaseActor = "owner" | "guest" | "superAdmin" | "reporter" | "drafter" | "visitor";

export interface ForeignIdCase {
  as: CaseActor;
  /** The variables, with `id` at the position under test and everything else wrong where it can be. */
  variables: (id: string, world: World) => Record<string, unknown>;
  /** B's object at the position; absent when the actor reaches every organisation (the super admin) and only an unknown id can be tried. */
  foreign?: (world: World) => string;
  /**
   * Set where B's id is rightly not refused as not found (a list filtered to the actor's own object,
   * or an id only compared with the object's own): why. The two answers must still be identical.
   */
  alike?: string;
}

const BAD_EMAIL = "not an address";
const BAD_TEMPLATE = { name: "", widgets: [{ type: "ShortText", title: "" }] };
const BAD_FORM = { ...BAD_TEMPLATE, theme: { nextButtonBackground: "not a colour" } };
const BAD_PLAN = { name: "", price: -1, seats: -1 };
const BAD_RESOURCE = { title: "", description: "", videoSrc: "javascript:alert(1)" };
const OWN_BLOB_ONLY = "only '-' or the current picture's own id is taken: compared, never looked up, so any other id is refused alike";
const byId = (foreign: (world: World) => string, extra: (world: World) => Record<string, unknown> = () => ({}), as: CaseActor = "owner"): ForeignIdCase => ({
  as,
  foreign,
  variables: (id, world) => ({ id, ...extra(world) }),
});
const unknownOnly = (extra: Record<string, unknown> = {}): ForeignIdCase => ({ as: "superAdmin", variables: (id) => ({ id, ...extra }) });

export const CASES: Record<string, ForeignIdCase> = {
  // Tags and saved replies
  "tagCreate(organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id) => ({ organisationID: id, name: "" }) },
  "tagUpdate(id)": byId((w) => w.tag!, () => ({ newName: "" })),
  "tagArchive(id)": byId((w) => w.tag!),
  "tagUnarchive(id)": byId((w) => w.tag!),
  "savedReplyCreate(organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id) => ({ organisationID: id, input: { title: "", body: "" } }) },
  "savedReplyUpdate(id)": byId((w) => w.savedReply!, () => ({ input: { title: "", body: "" } })),
  "savedReplyArchive(id)": byId((w) => w.savedReply!),
  // A report's life
  "reportSubmissionJoin(id)": byId((w) => w.report!),
  "reportSubmissionLeave(id)": byId((w) => w.report!),
  "reportSubmissionOpen(id)": byId((w) => w.report!),
  "reportSubmissionArchive(id)": byId((w) => w.report!),
  "reportSubmissionUnarchive(id)": byId((w) => w.report!),
  "reportSubmissionFeedbackGiven(id)": byId((w) => w.report!),
  "reportSubmissionHardDelete(id)": byId((w) => w.report!),
  "reportSubmissionLegalHold(id)": byId((w) => w.report!, () => ({ hold: true })),
  "reportSubmissionMuteNotification(id)": byId((w) => w.report!, () => ({ muted: true })),
  "reportSubmissionSetPriority(id)": byId((w) => w.report!, () => ({ priority: "High" })),
  "reportSubmissionClose(id)": byId((w) => w.report!, () => ({ completeStatus: "New", note: "" })),
  "reportSubmissionForwardEmail(id)": byId((w) => w.report!, () => ({ email: BAD_EMAIL })),
  "reportSubmissionInternalReference(id)": byId((w) => w.report!, () => ({ internalReference: "REF-1" })),
  "reportSubmissionInviteUser(id)": byId((w) => w.report!, () => ({ email: BAD_EMAIL })),
  "reportSubmissionInviteRemove(id)": byId((w) => w.guestInvite!),
  "reportSubmissionAssignTags(id)": byId((w) => w.report!, () => ({ tags: ["not a tag"] })),
  "reportSubmissionAssignTags(tags)": { as: "owner", foreign: (w) => w.tag!, variables: (id, w) => ({ id: w.ownReport, tags: [id, "not a tag"] }) },
  "reportSubmissionAssignUser(id)": byId((w) => w.report!, () => ({ userID: "not a user" })),
  "reportSubmissionAssignUser(userID)": { as: "owner", foreign: (w) => w.member!, variables: (id, w) => ({ id: w.ownReport, userID: id }) },
  "reportSubmissionUnassignUser(id)": byId((w) => w.report!, () => ({ userID: "not a user" })),
  "reportSubmissionUnassignUser(userID)": { as: "owner", foreign: (w) => w.member!, variables: (id, w) => ({ id: w.ownReport, userID: id }) },
  "reportSubmissionChangeOwner(id)": byId((w) => w.report!, () => ({ userID: "not a user" })),
  "reportSubmissionChangeOwner(userID)": { as: "owner", foreign: (w) => w.member!, variables: (id, w) => ({ id: w.ownReport, userID: id }) },
  "reportSubmissionAnswerRedact(id)": byId((w) => w.report!, () => ({ widgetID: "no such widget", index: -1, start: 5, end: 1 })),
  "reportSubmissionNoteCreate(reportSubmissionID)": { as: "owner", foreign: (w) => w.report!, variables: (id) => ({ reportSubmissionID: id, note: "" }) },
  "reportSubmissionNoteUpdate(id)": byId((w) => w.note!, () => ({ note: "" })),
  "reportSubmissionNoteArchive(id)": byId((w) => w.note!),
  "guestMemberReportInviteAccept(id)": byId((w) => w.guestInvite!, undefined, "guest"),
  "guestMemberReportInviteReject(id)": byId((w) => w.guestInvite!, undefined, "guest"),
  // Conversations, as staff and as reporters (a reporter's session names its own report; these name another)
  "reportConversationSendMessage(reportSubmissionID)": { as: "owner", foreign: (w) => w.report!, variables: (id) => ({ reportSubmissionID: id, input: { type: "Image", message: "" } }) },
  "reportConversationReadMessages(reportSubmissionID)": { as: "owner", foreign: (w) => w.report!, variables: (id) => ({ reportSubmissionID: id, messageIDs: ["not a message"] }) },
  "reportConversationReadMessages(messageIDs)": { as: "reporter", foreign: (w) => w.message!, variables: (id) => ({ messageIDs: [id] }), alike: "a read receipt marks what it finds of the reporter's own chat and passes over the rest" },
  "reportConversationUpdateUserStatus(reportSubmissionID)": { as: "owner", foreign: (w) => w.report!, variables: (id) => ({ reportSubmissionID: id, status: "Typing" }) },
  "reportConversationMessageRedact(id)": byId((w) => w.message!, () => ({ start: 5, end: 1 })),
  "userReportSubmissionUpdate(attachments)": {
    as: "drafter",
    foreign: (w) => w.attachment!,
    variables: (id) => ({ attachments: [id], answers: [], page: -1 }),
    alike: "the attachments kept are those of the reporter's own draft that the list names; any other id names nothing to keep",
  },
  // Forms
  "reportFormCreate(input.organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id) => ({ input: { ...BAD_FORM, organisationID: id } }) },
  "reportFormUpdate(id)": byId((w) => w.form!, () => ({ input: BAD_FORM })),
  "reportFormUpdate(input.organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id, w) => ({ id: w.ownForm, input: { ...BAD_FORM, organisationID: id } }) },
  "reportFormPublish(id)": byId((w) => w.form!, () => ({ buildID: "not a build" })),
  "reportFormPublish(buildID)": { as: "owner", foreign: (w) => w.build!, variables: (id, w) => ({ id: w.ownForm, buildID: id }) },
  "reportFormUnpublish(id)": byId((w) => w.form!),
  "reportFormSecure(id)": byId((w) => w.form!, () => ({ password: "" })),
  "reportFormLockToggle(id)": byId((w) => w.form!),
  "reportFormArchive(id)": byId((w) => w.form!),
  "reportFormUnarchive(id)": byId((w) => w.form!),
  "reportFormNoteCreate(reportFormID)": { as: "owner", foreign: (w) => w.form!, variables: (id) => ({ reportFormID: id, note: "" }) },
  "reportFormNoteUpdate(id)": byId((w) => w.formNote!, () => ({ note: "" })),
  "reportFormNoteArchive(id)": byId((w) => w.formNote!),
  "reportFormTranslationUpdate(input.reportFormID)": { as: "owner", foreign: (w) => w.form!, variables: (id) => ({ input: { reportFormID: id, lang: "not a language", name: "no such text", reviewed: true, translatedText: "" } }) },
  "reportFormUnlock(reportFormID)": { as: "visitor", foreign: (w) => w.securedForm!, variables: (id) => ({ reportFormID: id, password: "" }) },
  // The organisation and its people
  "organisationUpdate(id)": byId((w) => w.demo!, () => ({ input: { name: "", logoWidthPixels: -1, formLanguage: "not a language" } })),
  "organisationUpdate(input.logoBlobID)": { as: "owner", foreign: (w) => w.blob!, variables: (id, w) => ({ id: w.northwind, input: { name: "", logoBlobID: id } }), alike: OWN_BLOB_ONLY },
  "organisationUpdateLogo(id)": byId((w) => w.demo!),
  "organisationArchive(id)": unknownOnly(),
  "organisationUnarchive(id)": unknownOnly(),
  "organisationEmailSubscriberCreate(organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id) => ({ organisationID: id, input: { email: BAD_EMAIL } }) },
  "organisationEmailSubscriberDelete(id)": byId((w) => w.subscriber!),
  "onboardInviteCreate(organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id, w) => ({ organisationID: id, input: { email: BAD_EMAIL, roleID: w.memberRole } }) },
  "onboardInviteArchive(id)": byId((w) => w.onboardInvite!),
  "onboardInviteUnarchive(id)": byId((w) => w.onboardInvite!),
  "resendOnboardInvite(id)": byId((w) => w.onboardInvite!),
  "userCreate(input.organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id, w) => ({ input: { organisationID: id, email: BAD_EMAIL, firstName: "", lastName: "", password: "1", roleID: w.memberRole } }) },
  "userCreate(input.avatarBlobID)": { as: "owner", foreign: (w) => w.blob!, variables: (id, w) => ({ input: { avatarBlobID: id, email: BAD_EMAIL, firstName: "", lastName: "", password: "1", roleID: w.memberRole } }), alike: OWN_BLOB_ONLY },
  "userUpdate(id)": byId((w) => w.member!, () => ({ input: { email: BAD_EMAIL, password: "1" } })),
  "userUpdate(input.organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id, w) => ({ id: w.ownMember, input: { organisationID: id, email: BAD_EMAIL } }), alike: "compared with the user's own organisation and never looked up: any other is refused alike, as no move between organisations" },
  "userUpdate(input.avatarBlobID)": { as: "owner", foreign: (w) => w.blob!, variables: (id, w) => ({ id: w.ownMember, input: { avatarBlobID: id, email: BAD_EMAIL } }), alike: OWN_BLOB_ONLY },
  "userUpdateAvatar(id)": byId((w) => w.member!),
  "userSuspend(id)": byId((w) => w.member!),
  "userUnsuspend(id)": byId((w) => w.member!),
  "userDelete(id)": byId((w) => w.member!),
  "userKick(id)": byId((w) => w.member!, (w) => ({ organisationID: w.northwind })),
  "userKick(organisationID)": { as: "owner", foreign: (w) => w.demo!, variables: (id, w) => ({ id: w.ownMember, organisationID: id }) },
  "userTwoFactorAuthenticationUpdate(userID)": { as: "superAdmin", variables: (id) => ({ userID: id, activated: false }) },
  "changeDetails(input.avatarBlobID)": { as: "owner", foreign: (w) => w.blob!, variables: (id) => ({ input: { avatarBlobID: id, email: BAD_EMAIL } }), alike: OWN_BLOB_ONLY },
  "guestSendEnquiry(organisationID)": { as: "visitor", foreign: (w) => w.demo!, variables: (id) => ({ organisationID: id, message: "" }) },
  // The product's own objects: only the super admin reaches them, so only an unknown id can be tried
  "productPlanUpdate(id)": unknownOnly({ input: BAD_PLAN }),
  "productPlanArchive(id)": unknownOnly(),
  "productPlanUnarchive(id)": unknownOnly(),
  "reportFormTemplateUpdate(id)": unknownOnly({ input: BAD_TEMPLATE }),
  "reportFormTemplateArchive(id)": unknownOnly(),
  "reportFormTemplateUnarchive(id)": unknownOnly(),
  "resourceDocumentUpdate(id)": unknownOnly({ input: { title: "", description: "" } }),
  "resourceDocumentArchive(id)": unknownOnly(),
  "resourceDocumentUnarchive(id)": unknownOnly(),
  "resourceVideoUpdate(id)": unknownOnly({ input: BAD_RESOURCE }),
  "resourceVideoArchive(id)": unknownOnly(),
  "resourceVideoUnarchive(id)": unknownOnly(),
};

/** Id-like positions that name no object of an organisation, and why. */
export const NOT_APPLICABLE: Record<string, string> = {
  "onboardInviteCreate(input.roleID)": "roles are the product's, the same in every organisation",
  "userCreate(input.roleID)": "roles are the product's, the same in every organisation",
  "userUpdate(input.roleID)": "roles are the product's, the same in every organisation",
  "reportSubmissionAnswerRedact(widgetID)": "a key inside the report's own form definition, read only once the report is found",
  "userReportSubmissionUpdate(answers.widgetID)": "a key inside the reporter's own form definition",
  "reportFormCreate(input.widgets.id)": "a key the editor gives a widget inside the definition being saved",
  "reportFormUpdate(input.widgets.id)": "a key the editor gives a widget inside the definition being saved",
  "reportFormTemplateCreate(input.widgets.id)": "a key the editor gives a widget inside the definition being saved",
  "reportFormTemplateUpdate(input.widgets.id)": "a key the editor gives a widget inside the definition being saved",
  "reportFormCreate(input.widgets.condition.rules.conditionWidgetID)": "a key of another widget of the definition being saved",
  "reportFormUpdate(input.widgets.condition.rules.conditionWidgetID)": "a key of another widget of the definition being saved",
  "reportFormTemplateCreate(input.widgets.condition.rules.conditionWidgetID)": "a key of another widget of the definition being saved",
  "reportFormTemplateUpdate(input.widgets.condition.rules.conditionWidgetID)": "a key of another widget of the definition being saved",
};
