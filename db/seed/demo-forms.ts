import { condition, type FormSpec } from "./publish-form.ts";

/**
 * The demo forms. Between them they use every widget type, both condition match types and
 * several pages, so each screen of the form builder and the reporter flow has something to show.
 * Widget ids are readable and stable because submission answers refer to them.
 */

const ALLOWED_FILE_TYPES = [".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".pdf", ".png", ".jpg", ".jpeg", ".gif", ".txt", ".mp4", ".mp3", ".m4a", ".mov"];

/** Settings every seeded custom report form shares. */
const CUSTOM_FORM_DEFAULTS: Partial<Omit<FormSpec, "name" | "widgets">> = {
  type: "Custom",
  hasChat: true,
  allowFileUploads: true,
  allowChatFileUploads: true,
  allowedFileTypes: ALLOWED_FILE_TYPES,
  finishMessageTitle: "Report Submitted",
  showImportantInfoMessage: true,
  uploadFilesMessage:
    "Attach documents, photos or recordings that support your report. Files can contain hidden details such as author names, so remove anything that could identify you.",
  assignedToSupportMessage: "Your report has been assigned to a case handler. Check back here for their messages.",
  reportClosedMessage: "This report has been closed. Thank you for speaking up: your report made a difference.",
};

const YES_NO = ["Yes", "No"];
const ANONYMITY_NOTE =
  "You do not have to give your name. Describe people by their role if you prefer, and leave out anything that would identify you.";
const CREDENTIALS_NOTE =
  "When you submit you will be shown a report ID and password. Write them down: they are the only way to read our replies and add information.";

export const WORKPLACE_MISCONDUCT_FORM: FormSpec = {
  ...CUSTOM_FORM_DEFAULTS,
  name: "Workplace Misconduct Report",
  welcomeMessageContent:
    "Use this form to report fraud, bribery, harassment, discrimination or any other conduct that breaks our code of conduct or the law. It takes about ten minutes.",
  finishMessageContent: "Thank you. Your report has been received and a case handler will review it within two business days.",
  widgets: [
    { id: "w_summary_section", type: "Section", title: "About your report", pageName: "Summary" },
    { id: "w_anonymity_note", type: "Note", title: ANONYMITY_NOTE },
    { id: "w_summary", type: "ShortText", title: "Give your report a short title", required: true, caption: "For example: Duplicate expense claims in regional sales" },
    {
      id: "w_location",
      type: "Select",
      title: "Where did this happen?",
      required: true,
      answers: ["Head office", "Regional office", "Warehouse", "Client site", "Online or remote", "Other"],
    },
    { id: "w_incident_date", type: "Date", title: "When did it happen, or when did it start?", required: true, tooltip: "An approximate date is fine." },
    { id: "w_what_section", type: "Section", title: "What happened", pageName: "What happened" },
    {
      id: "w_misconduct_kind",
      type: "Checkbox",
      title: "What kind of misconduct?",
      required: true,
      caption: "Tick all that apply.",
      answers: ["Fraud", "Bribery", "Harassment or bullying", "Discrimination", "Safety breach", "Conflict of interest", "Other"],
    },
    {
      id: "w_amount",
      type: "ShortText",
      title: "Roughly how much money is involved?",
      tooltip: "A rough estimate helps us judge how urgent this is.",
      condition: condition("c_amount", "Any", [
        ["w_misconduct_kind", "Fraud"],
        ["w_misconduct_kind", "Bribery"],
      ]),
    },
    {
      id: "w_description",
      type: "LongText",
      title: "Describe what happened",
      required: true,
      tooltip: "Include what, where and how often, and any documents or records that would show it.",
      caption: "Stick to what you saw or heard directly where you can.",
    },
    { id: "w_ongoing", type: "Radio", title: "Is this still happening?", answers: ["Yes", "No", "Not sure"] },
    { id: "w_people_section", type: "Section", title: "People involved", pageName: "People involved" },
    { id: "w_involved", type: "Radio", title: "Were you directly involved?", required: true, answers: YES_NO },
    {
      id: "w_involvement",
      type: "LongText",
      title: "Describe your involvement",
      caption: "Being involved does not stop you from reporting, and it helps us to understand what you saw.",
      condition: condition("c_involvement", "All", [["w_involved", "Yes"]]),
    },
    { id: "w_people", type: "LongText", title: "Who else was involved or saw it happen?", caption: "Roles are enough, for example 'the team leader'." },
    { id: "w_raised_before", type: "Radio", title: "Have you raised this with anyone before?", answers: YES_NO },
    { id: "w_outcome_section", type: "Section", title: "Outcome sought", pageName: "Outcome sought" },
    { id: "w_outcome", type: "LongText", title: "What outcome would you like to see?", tooltip: "For example: an investigation, a change of process, or simply that we are aware." },
    {
      id: "w_follow_up",
      type: "Select",
      title: "How would you like us to follow up?",
      answers: ["Through the secure chat on this portal", "No follow-up needed"],
    },
    { id: "w_credentials_note", type: "Note", title: CREDENTIALS_NOTE },
  ],
};

export const SAFETY_COMPLIANCE_FORM: FormSpec = {
  ...CUSTOM_FORM_DEFAULTS,
  name: "Safety and Compliance Report",
  welcomeMessageContent:
    "Report unsafe work, injuries and near misses, environmental breaches or improper dealings with suppliers and officials. You can stay anonymous.",
  finishMessageContent: "Thank you for reporting. If anyone is in immediate danger, also tell your site supervisor or call emergency services.",
  theme: {
    sectionTitleBackground: "#0B3D2E",
    sectionTitleForeground: "#FFFFFF",
    progressBarCompleted: "#1F7A4D",
    progressBarStepActive: "#1F7A4D",
    nextButtonBackground: "#1F7A4D",
    nextButtonForeground: "#FFFFFF",
    backButtonForeground: "#0B3D2E",
  },
  widgets: [
    { id: "w_summary_section", type: "Section", title: "About your report", pageName: "Summary" },
    { id: "w_anonymity_note", type: "Note", title: ANONYMITY_NOTE },
    { id: "w_summary", type: "ShortText", title: "Give your report a short title", required: true },
    {
      id: "w_site",
      type: "Select",
      title: "Which site is this about?",
      required: true,
      answers: ["Northwind Depot", "Harbour Warehouse", "Head Office", "Delivery route", "Other"],
    },
    { id: "w_incident_date", type: "Date", title: "When did it happen?", required: true, tooltip: "An approximate date is fine." },
    { id: "w_what_section", type: "Section", title: "What happened", pageName: "What happened" },
    {
      id: "w_concern_kind",
      type: "Checkbox",
      title: "What is the concern about?",
      required: true,
      caption: "Tick all that apply.",
      answers: ["Unsafe equipment", "Injury or near miss", "Environmental breach", "Fraud", "Bribery", "Other"],
    },
    {
      id: "w_third_party",
      type: "ShortText",
      title: "Which supplier, customer or official was involved?",
      caption: "A company name or role is enough.",
      condition: condition("c_third_party", "Any", [
        ["w_concern_kind", "Fraud"],
        ["w_concern_kind", "Bribery"],
      ]),
    },
    { id: "w_description", type: "LongText", title: "Describe what happened", required: true, tooltip: "Include the equipment, area or paperwork involved." },
    { id: "w_people_section", type: "Section", title: "People involved", pageName: "People involved" },
    { id: "w_injured", type: "Radio", title: "Was anyone injured?", required: true, answers: ["Yes", "No", "Not sure"] },
    {
      id: "w_injury_details",
      type: "LongText",
      title: "Describe the injuries and any first aid given",
      condition: condition("c_injury_details", "All", [["w_injured", "Yes"]]),
    },
    { id: "w_told_supervisor", type: "Radio", title: "Has this been reported to a supervisor?", answers: YES_NO },
    { id: "w_outcome_section", type: "Section", title: "Outcome sought", pageName: "Outcome sought" },
    { id: "w_outcome", type: "LongText", title: "What would you like to happen?" },
    { id: "w_credentials_note", type: "Note", title: CREDENTIALS_NOTE },
  ],
};

/** The Demo organisation's password-protected form (password DEMO_FORM_PASSWORD). */
export const CONFIDENTIAL_FINANCE_FORM: FormSpec = {
  ...CUSTOM_FORM_DEFAULTS,
  name: "Confidential Finance Concern",
  welcomeMessageContent: "This form is for finance staff. Your finance lead can give you its password.",
  finishMessageContent: "Thank you. The audit committee chair will review your concern personally.",
  widgets: [
    { id: "w_summary_section", type: "Section", title: "Your concern", pageName: "Summary" },
    { id: "w_confidential_note", type: "Note", title: "Only the audit committee chair and the head of internal audit can read reports made with this form." },
    {
      id: "w_finance_area",
      type: "Select",
      title: "Which area does this concern?",
      required: true,
      answers: ["Accounts payable", "Payroll", "Procurement", "Expenses", "Financial reporting", "Other"],
    },
    { id: "w_first_noticed", type: "Date", title: "When did you first notice it?" },
    { id: "w_details_section", type: "Section", title: "Details", pageName: "Details" },
    { id: "w_finance_details", type: "LongText", title: "Describe the concern", required: true, caption: "Transaction references and dates help us find the records." },
    { id: "w_has_evidence", type: "Radio", title: "Do you have documents that support this?", answers: YES_NO, tooltip: "You can attach them on the next step." },
  ],
};

/** The Demo organisation's general enquiry form; enquiry submissions belong to it. */
export const GENERAL_ENQUIRY_FORM: FormSpec = {
  type: "Enquiry",
  name: "General Enquiry",
  hasChat: true,
  welcomeMessageContent: "Ask a question about speaking up, in confidence. You do not need to make a report.",
  finishMessageContent: "Thank you. We will reply here, usually within two business days.",
  widgets: [
    { id: "w_enquiry_section", type: "Section", title: "Your question", pageName: "Summary" },
    { id: "w_message", type: "LongText", title: "Message", required: true, caption: "Please leave out names and anything that could identify you." },
  ],
};
