import type { Priority, SubmissionStatus } from "../../api/shared/enums.ts";
import type { DemoOrganisationKey } from "./demo-accounts.ts";
import { isoDateDaysAgo } from "./demo-time.ts";

/**
 * The demo reports, one per status the console distinguishes. All of it is invented: no real
 * people, places or events, and chats read like a case handler and an anonymous reporter would.
 */
export interface ReportScenario {
  status: SubmissionStatus;
  priority: Priority;
  /** "enquiry" submissions belong to the organisation's General Enquiry form. */
  form: "main" | "enquiry";
  /** When the reporter completed the report, in days before the seed. */
  submittedDaysAgo: number;
  /** When a case handler closed it, for the closed statuses. */
  closedDaysAgo?: number;
  internalReference?: string;
  /** Answers by widget id; only widgets the reporter would have seen. */
  answers: Record<string, string | string[]>;
  tags?: string[];
  /** Staff notes written while the report was open. */
  notes?: string[];
  /** The chat, alternating case handler then reporter, oldest first. */
  messages?: string[];
}

export interface OrganisationScenarios {
  tags: { name: string; isInternal: boolean }[];
  reports: ReportScenario[];
}

/** The reserved tag the console applies itself; it cannot be renamed or deleted. */
const ESCALATED = { name: "Escalated", isInternal: true };

export function demoScenarios(now: Date): Record<DemoOrganisationKey, OrganisationScenarios> {
  const date = (days: number) => isoDateDaysAgo(days, now);
  return {
    demo: {
      tags: [{ name: "Finance", isInternal: false }, { name: "People and Culture", isInternal: false }, ESCALATED],
      reports: [
        {
          status: "New",
          priority: "High",
          form: "main",
          submittedDaysAgo: 2,
          answers: {
            w_summary: "Duplicate expense claims in regional sales",
            w_location: "Regional office",
            w_incident_date: date(190),
            w_misconduct_kind: ["Fraud"],
            w_amount: "Around $12,000 over six months",
            w_description:
              "The same client dinners appear on expense claims from two people in the team, with different receipts for the same evening. The claims are approved by the same manager each month.",
            w_ongoing: "Yes",
            w_involved: "No",
            w_people: "A regional sales manager and an approver in accounts payable.",
            w_raised_before: "No",
            w_outcome: "An independent review of the sales team's expense claims.",
            w_follow_up: "Through the secure chat on this portal",
          },
          tags: ["Finance"],
        },
        {
          status: "Assigned",
          priority: "Medium",
          form: "main",
          submittedDaysAgo: 9,
          internalReference: "HR-2041",
          answers: {
            w_summary: "Belittling comments in team meetings",
            w_location: "Head office",
            w_incident_date: date(75),
            w_misconduct_kind: ["Harassment or bullying"],
            w_description:
              "A senior colleague regularly mocks the work of junior staff in front of the team and has made comments about people's accents. Several people have stopped speaking in meetings.",
            w_ongoing: "Yes",
            w_involved: "Yes",
            w_involvement: "Some of the comments have been directed at me.",
            w_people: "The senior colleague, and most of the team attend the meetings.",
            w_raised_before: "No",
            w_outcome: "I would like the behaviour to stop without the team finding out who reported it.",
            w_follow_up: "Through the secure chat on this portal",
          },
          tags: ["People and Culture"],
          notes: ["Initial conversation with the People and Culture partner booked. Meeting minutes for the last quarter requested."],
          messages: [
            "Thank you for your report. Could you tell us roughly when this started?",
            "Around the start of the last quarter, after the team restructure.",
            "Thanks, that helps. Are there particular meetings where this happened that others would have attended?",
            "Yes, the weekly planning meetings. Most of the team is there every week.",
          ],
        },
        {
          status: "Substantiated",
          priority: "High",
          form: "main",
          submittedDaysAgo: 26,
          closedDaysAgo: 6,
          internalReference: "INV-0193",
          answers: {
            w_summary: "Supplier gifts in procurement not declared",
            w_location: "Head office",
            w_incident_date: date(120),
            w_misconduct_kind: ["Bribery", "Conflict of interest"],
            w_amount: "Gift cards and event tickets, perhaps $3,000 in total",
            w_description:
              "A buyer has received gift cards and concert tickets from a cleaning contractor, which then won a contract renewal without a tender. None of it is in the gifts register.",
            w_ongoing: "Not sure",
            w_involved: "No",
            w_people: "A buyer in procurement and the contractor's account manager.",
            w_raised_before: "No",
            w_outcome: "The contract should be reviewed and the gifts policy enforced.",
            w_follow_up: "Through the secure chat on this portal",
          },
          tags: ["Finance", "Escalated"],
          notes: ["Gifts register checked: no declarations from the buyer in the last two years.", "Contract file reviewed; the renewal skipped the tender step."],
          messages: [
            "Thank you for your report. We have started looking into it. Do you know roughly when the contract was renewed?",
            "I believe it was in the spring, a few weeks after the tickets were handed over.",
            "Thank you. We have found records that support your report and it has been passed to the audit committee.",
            "Thank you for taking it seriously.",
            "We have now concluded this matter and appropriate action has been taken. Thank you for speaking up.",
          ],
        },
        {
          status: "Completed",
          priority: "Low",
          form: "main",
          submittedDaysAgo: 19,
          closedDaysAgo: 12,
          answers: {
            w_summary: "Fire exit blocked in the warehouse",
            w_location: "Warehouse",
            w_incident_date: date(21),
            w_misconduct_kind: ["Safety breach"],
            w_description: "Pallets have been stacked in front of the rear fire exit for the past two weeks, so the door cannot be opened.",
            w_ongoing: "Yes",
            w_involved: "No",
            w_raised_before: "Yes",
          },
          notes: ["Warehouse manager confirmed the exit has been cleared and marked with floor tape."],
          messages: [
            "Thank you for your report. The warehouse manager has been asked to clear the exit today.",
            "Thanks. It is clear now.",
            "Good to hear. We have added the exit to the weekly safety walk, so we are closing this report.",
          ],
        },
        {
          status: "Rejected",
          priority: "Low",
          form: "main",
          submittedDaysAgo: 33,
          closedDaysAgo: 29,
          answers: {
            w_summary: "Unfair weekend roster",
            w_location: "Regional office",
            w_incident_date: date(40),
            w_misconduct_kind: ["Other"],
            w_description: "The weekend roster has given me three Saturdays in a row while others have had none.",
            w_ongoing: "Yes",
            w_involved: "Yes",
            w_involvement: "I am one of the staff on the roster.",
            w_outcome: "A fairer roster.",
          },
          messages: [
            "Thank you for getting in touch. Rostering concerns are handled by your manager or People and Culture rather than through this channel. Would you be comfortable raising it with them?",
            "Yes, I can do that. I was not sure where to take it.",
          ],
        },
        {
          status: "New",
          priority: "Low",
          form: "enquiry",
          submittedDaysAgo: 1,
          answers: { w_message: "Can contractors use this portal as well as employees, and will my agency find out if I do?" },
        },
      ],
    },
    northwind: {
      tags: [{ name: "Safety", isInternal: false }, { name: "Suppliers", isInternal: false }, ESCALATED],
      reports: [
        {
          status: "New",
          priority: "Medium",
          form: "main",
          submittedDaysAgo: 3,
          answers: {
            w_summary: "Forklift with faulty brakes still in use",
            w_site: "Harbour Warehouse",
            w_incident_date: date(5),
            w_concern_kind: ["Unsafe equipment", "Injury or near miss"],
            w_description: "Forklift 4 takes several metres to stop. It was tagged out last week but the tag has been removed and it is back in use.",
            w_injured: "No",
            w_told_supervisor: "Yes",
            w_outcome: "Take the forklift out of service until it is repaired.",
          },
          tags: ["Safety"],
        },
        {
          status: "Assigned",
          priority: "High",
          form: "main",
          submittedDaysAgo: 7,
          internalReference: "NW-SAF-118",
          answers: {
            w_summary: "Chemical drums stored next to the storm drain",
            w_site: "Northwind Depot",
            w_incident_date: date(10),
            w_concern_kind: ["Environmental breach"],
            w_description: "Drums of degreaser are being kept outside next to the storm drain, and one has been leaking after rain.",
            w_injured: "No",
            w_told_supervisor: "No",
            w_outcome: "Move the drums into the bunded store and check the drain.",
          },
          tags: ["Safety", "Escalated"],
          notes: ["Site photos requested from the depot manager. Environmental officer informed."],
          messages: [
            "Thank you for your report. Can you tell us roughly how many drums there are?",
            "About six, on the left of the wash bay.",
            "Thank you. Someone is going to the depot tomorrow morning to check.",
            "Thanks. Two of them have been moved but the others are still there.",
          ],
        },
        {
          status: "Substantiated",
          priority: "High",
          form: "main",
          submittedDaysAgo: 28,
          closedDaysAgo: 8,
          internalReference: "NW-CMP-042",
          answers: {
            w_summary: "Inspector offered payment to overlook defects",
            w_site: "Delivery route",
            w_incident_date: date(35),
            w_concern_kind: ["Bribery"],
            w_third_party: "A vehicle inspection contractor",
            w_description: "A driver told me that the inspection contractor passed two trucks with worn tyres after being paid in cash by someone at the depot.",
            w_injured: "No",
            w_told_supervisor: "No",
            w_outcome: "Re-inspect the fleet and stop using the contractor.",
          },
          tags: ["Suppliers", "Escalated"],
          notes: ["Independent re-inspection booked for the whole fleet.", "Re-inspection found defects on both trucks; contractor suspended."],
          messages: [
            "Thank you for your report. Do you know which trucks were inspected?",
            "The two newest delivery trucks, I think in the same week.",
            "Thank you. An independent inspection has confirmed the problem and the contractor has been suspended. We are closing this report.",
          ],
        },
        {
          status: "Completed",
          priority: "Medium",
          form: "main",
          submittedDaysAgo: 16,
          closedDaysAgo: 11,
          answers: {
            w_summary: "Near miss with a reversing truck",
            w_site: "Northwind Depot",
            w_incident_date: date(17),
            w_concern_kind: ["Injury or near miss"],
            w_description: "A truck reversed out of bay 3 without a spotter and nearly hit someone walking through the yard.",
            w_injured: "Yes",
            w_injury_details: "A bruised arm from jumping out of the way. First aid was given on site.",
            w_told_supervisor: "Yes",
            w_outcome: "Marked walkways in the yard.",
          },
          tags: ["Safety"],
          messages: [
            "Thank you for your report. Walkways are being painted in the yard this week and spotters are now required in every bay.",
            "That is great, thank you.",
          ],
        },
        {
          status: "Rejected",
          priority: "Low",
          form: "main",
          submittedDaysAgo: 24,
          closedDaysAgo: 22,
          answers: {
            w_summary: "Test report",
            w_site: "Other",
            w_incident_date: date(24),
            w_concern_kind: ["Other"],
            w_description: "Just checking how the form works, please ignore.",
            w_injured: "No",
          },
          messages: ["Thank you for trying the form. We are closing this one as a test; you are welcome to report a real concern at any time.", "Will do, thanks."],
        },
      ],
    },
  };
}
