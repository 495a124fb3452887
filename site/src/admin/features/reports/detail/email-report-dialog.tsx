import { useMutation } from 'urql';
import { EmailDialog } from '../../../ui/email-dialog';
import { errorMessage } from '../../../ui/errors';
import { notify } from '../../../ui/notice-store';
import { FORWARD_MUTATION } from './detail-api';

export function EmailReportDialog({ reportID, onClose }: { reportID: string; onClose: () => void }) {
  const [, forward] = useMutation(FORWARD_MUTATION);
  const send = async (to: string) => {
    const result = await forward({ id: reportID, email: to });
    if (result.error) return errorMessage(result.error);
    notify(`Successfully emailed report to ${to}`);
    return undefined;
  };
  return (
    <EmailDialog
      title="Email Report"
      intro="The recipient gets a link to this report; they still need to sign in to read it."
      fieldId="email-report-address"
      submitLabel="Send"
      busyLabel="Sending…"
      onSubmit={send}
      onClose={onClose}
    />
  );
}
