import { defineRelations } from "drizzle-orm";
import * as schema from "./schema/index.ts";

export const relations = defineRelations(schema, (r) => ({
  organisations: {
    logo: r.one.blobs({ from: r.organisations.logoBlobId, to: r.blobs.id }),
    users: r.many.users(),
    forms: r.many.reportForms(),
    submissions: r.many.reportSubmissions(),
    tags: r.many.tags(),
    invites: r.many.onboardInvites(),
    subscribers: r.many.organisationEmailSubscribers(),
  },
  roles: {
    users: r.many.users(),
  },
  users: {
    role: r.one.roles({ from: r.users.roleId, to: r.roles.id, optional: false }),
    organisation: r.one.organisations({ from: r.users.organisationId, to: r.organisations.id }),
    avatar: r.one.blobs({ from: r.users.avatarBlobId, to: r.blobs.id }),
    sessions: r.many.sessions(),
    guestMemberships: r.many.guestMemberships(),
    assignments: r.many.reportSubmissionAssignees(),
  },
  sessions: {
    user: r.one.users({ from: r.sessions.userId, to: r.users.id, optional: false }),
  },
  authTokens: {
    user: r.one.users({ from: r.authTokens.userId, to: r.users.id, optional: false }),
  },
  guestMemberships: {
    user: r.one.users({ from: r.guestMemberships.userId, to: r.users.id, optional: false }),
    organisation: r.one.organisations({ from: r.guestMemberships.organisationId, to: r.organisations.id, optional: false }),
  },
  blobs: {
    organisation: r.one.organisations({ from: r.blobs.organisationId, to: r.organisations.id }),
  },
  onboardInvites: {
    organisation: r.one.organisations({ from: r.onboardInvites.organisationId, to: r.organisations.id, optional: false }),
    role: r.one.roles({ from: r.onboardInvites.roleId, to: r.roles.id, optional: false }),
    invitedBy: r.one.users({ from: r.onboardInvites.invitedByUserId, to: r.users.id }),
  },
  prospects: {
    invite: r.one.onboardInvites({ from: r.prospects.inviteId, to: r.onboardInvites.id }),
  },
  organisationEmailSubscribers: {
    organisation: r.one.organisations({ from: r.organisationEmailSubscribers.organisationId, to: r.organisations.id, optional: false }),
  },
  reportFormTemplates: {
    currentBuild: r.one.reportFormBuilds({ from: r.reportFormTemplates.currentBuildId, to: r.reportFormBuilds.id }),
    builds: r.many.reportFormBuilds({ from: r.reportFormTemplates.id, to: r.reportFormBuilds.templateId }),
  },
  reportForms: {
    organisation: r.one.organisations({ from: r.reportForms.organisationId, to: r.organisations.id, optional: false }),
    currentBuild: r.one.reportFormBuilds({ from: r.reportForms.currentBuildId, to: r.reportFormBuilds.id }),
    deployedBuild: r.one.reportFormBuilds({ from: r.reportForms.deployedBuildId, to: r.reportFormBuilds.id }),
    builds: r.many.reportFormBuilds({ from: r.reportForms.id, to: r.reportFormBuilds.formId }),
    notes: r.many.reportFormNotes(),
    submissions: r.many.reportSubmissions(),
  },
  reportFormBuilds: {
    form: r.one.reportForms({ from: r.reportFormBuilds.formId, to: r.reportForms.id }),
    template: r.one.reportFormTemplates({ from: r.reportFormBuilds.templateId, to: r.reportFormTemplates.id }),
    author: r.one.users({ from: r.reportFormBuilds.authorUserId, to: r.users.id }),
    widgets: r.many.reportFormWidgets({ from: r.reportFormBuilds.id, to: r.reportFormWidgets.buildId }),
  },
  reportFormWidgets: {
    build: r.one.reportFormBuilds({ from: r.reportFormWidgets.buildId, to: r.reportFormBuilds.id, optional: false }),
  },
  reportFormNotes: {
    form: r.one.reportForms({ from: r.reportFormNotes.formId, to: r.reportForms.id, optional: false }),
    author: r.one.users({ from: r.reportFormNotes.authorUserId, to: r.users.id }),
  },
  reportSubmissions: {
    organisation: r.one.organisations({ from: r.reportSubmissions.organisationId, to: r.organisations.id, optional: false }),
    form: r.one.reportForms({ from: r.reportSubmissions.formId, to: r.reportForms.id, optional: false }),
    build: r.one.reportFormBuilds({ from: r.reportSubmissions.buildId, to: r.reportFormBuilds.id }),
    answers: r.many.reportSubmissionAnswers(),
    attachments: r.many.reportSubmissionAttachments(),
    assignees: r.many.reportSubmissionAssignees(),
    tags: r.many.tags({
      from: r.reportSubmissions.id.through(r.reportSubmissionTags.submissionId),
      to: r.tags.id.through(r.reportSubmissionTags.tagId),
    }),
    notes: r.many.reportSubmissionNotes(),
    conversation: r.one.reportConversations({ from: r.reportSubmissions.id, to: r.reportConversations.submissionId }),
    guestInvites: r.many.guestReportInvites(),
  },
  reportSubmissionAnswers: {
    submission: r.one.reportSubmissions({ from: r.reportSubmissionAnswers.submissionId, to: r.reportSubmissions.id, optional: false }),
  },
  reportSubmissionAttachments: {
    submission: r.one.reportSubmissions({ from: r.reportSubmissionAttachments.submissionId, to: r.reportSubmissions.id, optional: false }),
    blob: r.one.blobs({ from: r.reportSubmissionAttachments.blobId, to: r.blobs.id, optional: false }),
  },
  reportSubmissionAssignees: {
    submission: r.one.reportSubmissions({ from: r.reportSubmissionAssignees.submissionId, to: r.reportSubmissions.id, optional: false }),
    user: r.one.users({ from: r.reportSubmissionAssignees.userId, to: r.users.id, optional: false }),
  },
  tags: {
    organisation: r.one.organisations({ from: r.tags.organisationId, to: r.organisations.id, optional: false }),
    submissions: r.many.reportSubmissions({
      from: r.tags.id.through(r.reportSubmissionTags.tagId),
      to: r.reportSubmissions.id.through(r.reportSubmissionTags.submissionId),
    }),
  },
  reportSubmissionNotes: {
    submission: r.one.reportSubmissions({ from: r.reportSubmissionNotes.submissionId, to: r.reportSubmissions.id, optional: false }),
    author: r.one.users({ from: r.reportSubmissionNotes.authorUserId, to: r.users.id }),
  },
  guestReportInvites: {
    submission: r.one.reportSubmissions({ from: r.guestReportInvites.submissionId, to: r.reportSubmissions.id, optional: false }),
    organisation: r.one.organisations({ from: r.guestReportInvites.organisationId, to: r.organisations.id, optional: false }),
    user: r.one.users({ from: r.guestReportInvites.userId, to: r.users.id }),
  },
  reporterSessions: {
    submission: r.one.reportSubmissions({ from: r.reporterSessions.submissionId, to: r.reportSubmissions.id }),
  },
  reportConversations: {
    submission: r.one.reportSubmissions({ from: r.reportConversations.submissionId, to: r.reportSubmissions.id, optional: false }),
    messages: r.many.reportConversationMessages(),
  },
  reportConversationMessages: {
    conversation: r.one.reportConversations({ from: r.reportConversationMessages.conversationId, to: r.reportConversations.id, optional: false }),
    fromUser: r.one.users({ from: r.reportConversationMessages.fromUserId, to: r.users.id }),
    image: r.one.blobs({ from: r.reportConversationMessages.imageBlobId, to: r.blobs.id }),
  },
  resourceDocuments: {
    blob: r.one.blobs({ from: r.resourceDocuments.blobId, to: r.blobs.id }),
  },
  userActivities: {
    user: r.one.users({ from: r.userActivities.userId, to: r.users.id }),
    organisation: r.one.organisations({ from: r.userActivities.organisationId, to: r.organisations.id }),
    parent: r.one.userActivities({ from: r.userActivities.parentId, to: r.userActivities.id, alias: "children" }),
    children: r.many.userActivities({ alias: "children" }),
  },
}));

export type Relations = typeof relations;
