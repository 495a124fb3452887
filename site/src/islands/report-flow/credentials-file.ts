import { saveBlob } from '../../lib/download';
import type { ReportCredentials } from './report-api';

// The finish page's download of the credentials; apart from credentials.ts so the first page
// of the flow does not carry it.

export function credentialsFileName(reportID: string): string {
  return `Report ${reportID} credentials.txt`;
}

/** Saves the credentials as a text file made in the browser: nothing goes over the network. */
export function downloadCredentials(credentials: ReportCredentials): void {
  const text = `Report ID: ${credentials.reportID}\nPassword: ${credentials.password}\n`;
  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), credentialsFileName(credentials.reportID));
}
