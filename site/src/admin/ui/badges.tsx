import { TERMINAL_SUBMISSION_STATUSES, type Priority, type SubmissionStatus } from '../../../../api/shared/enums';

// Report status and priority as the spec draws them (admin console section 3).

export type BadgeTone = 'neutral' | 'positive' | 'warning' | 'negative' | 'accent' | 'primary';

/** Enum spellings shown with spaces: 'NotInvestigated' reads 'Not Investigated'. */
export function spaced(value: string): string {
  return value.replace(/([a-z])([A-Z])/g, '$1 $2');
}

export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_SUBMISSION_STATUSES as readonly string[]).includes(status);
}

/** Draft warning, Assigned accent, Closed and the outcomes primary, anything else positive. */
export function statusTone(status: SubmissionStatus | string): BadgeTone {
  if (status === 'Draft') return 'warning';
  if (status === 'Assigned') return 'accent';
  if (isTerminalStatus(status)) return 'primary';
  return 'positive';
}

export function priorityTone(priority: Priority | string): BadgeTone {
  if (priority === 'High') return 'negative';
  if (priority === 'Medium') return 'warning';
  return 'neutral';
}

export function Badge({ tone, children }: { tone: BadgeTone; children: string | number }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{spaced(status)}</Badge>;
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <Badge tone={priorityTone(priority)}>{priority}</Badge>;
}

/** 'First L.': only the first letter of the last name is shown (spec section 9). */
export function shortName(person: { firstName: string; lastName: string }): string {
  const initial = person.lastName.trim().charAt(0);
  return initial ? `${person.firstName} ${initial.toUpperCase()}.` : person.firstName;
}

export function assigneesText(members: readonly { user: { firstName: string; lastName: string } }[]): string {
  return members.length === 0 ? 'none' : members.map((member) => shortName(member.user)).join(', ');
}
