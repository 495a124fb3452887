import * as v from 'valibot';
import { ACTION_FAILED_MESSAGE } from '../../lib/action-failed';
import { errorMessageFrom } from '../../lib/http';
import { sendSolving } from '../../lib/challenge-rounds';
import { challengeIn, type Challenge } from '../../lib/proof-of-work';

// Attachment limits and the upload itself (spec sections 5 and 9).

export const MAX_ATTACHMENTS = 10;
export const MAX_TOTAL_BYTES = 25_000_000;
export const TOTAL_SIZE_MESSAGE = 'Files exceeds total allowed attachment size. Please delete or compress files and try again.';
/** Used when a form lists no types of its own. */
export const DEFAULT_FILE_TYPES = ['.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.txt', '.mp4', '.mp3', '.m4a', '.mov'];

const UPLOAD_URL = '/api/files/report-attachments';

export type AttachmentEntry = {
  key: string;
  name: string;
  size: number;
  status: 'uploading' | 'done' | 'error';
  /** 0–1 while uploading. */
  progress: number;
  id?: string;
  error?: string;
  /** False when the server could not remove the file's details (an old Office file, an encrypted PDF). */
  metadataRemoved?: boolean;
};

export function allowedTypes(formTypes: readonly string[]): string[] {
  const types = formTypes.map((type) => type.trim().toLowerCase()).filter(Boolean);
  return (types.length > 0 ? types : DEFAULT_FILE_TYPES).map((type) => (type.startsWith('.') ? type : `.${type}`));
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/**
 * Which of the chosen files may be uploaded next to the current list. The selection is cut to
 * the free slots; files of another type, or that would pass the total size, are refused.
 */
export function acceptFiles(chosen: readonly File[], current: readonly AttachmentEntry[], types: readonly string[]): { accepted: File[]; problems: string[] } {
  const problems: string[] = [];
  const active = current.filter((entry) => entry.status !== 'error');
  const slots = Math.max(0, MAX_ATTACHMENTS - active.length);
  if (chosen.length > slots) problems.push(`At most ${MAX_ATTACHMENTS} files can be attached.`);
  let total = active.reduce((sum, entry) => sum + entry.size, 0);
  const accepted: File[] = [];
  for (const file of chosen.slice(0, slots)) {
    if (!types.includes(extensionOf(file.name))) {
      problems.push(`${file.name}: this file type is not allowed.`);
    } else if (total + file.size > MAX_TOTAL_BYTES) {
      if (!problems.includes(TOTAL_SIZE_MESSAGE)) problems.push(TOTAL_SIZE_MESSAGE);
    } else {
      total += file.size;
      accepted.push(file);
    }
  }
  return { accepted, problems };
}

const uploadedSchema = v.object({ id: v.string(), fileName: v.string(), fileSizeBytes: v.number(), metadataRemoved: v.optional(v.boolean(), true) });

type UploadResult = { ok: true; id: string; metadataRemoved: boolean } | { ok: false; message: string };

/**
 * One file, one request. When the server asks for proof of work first (many files waiting in
 * unfinished reports, or many being checked: decision 060), the challenge is solved and the file
 * sent again with the solution in the field "verifyToken"; the progress starts over.
 */
export const uploadAttachment = (file: File, onProgress: (fraction: number) => void): Promise<UploadResult> => sendSolving((solution) => sendAttachment(file, onProgress, solution));

/**
 * XMLHttpRequest rather than fetch because only it reports upload progress. There is
 * deliberately no abort: uploads cannot be cancelled once started.
 */
function sendAttachment(file: File, onProgress: (fraction: number) => void, verifyToken: string | null): Promise<{ result: UploadResult; challenge?: Challenge | undefined }> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', UPLOAD_URL);
    request.setRequestHeader('accept', 'application/json');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        const parsed = v.safeParse(uploadedSchema, body);
        resolve({ result: parsed.success ? { ok: true, id: parsed.output.id, metadataRemoved: parsed.output.metadataRemoved } : { ok: false, message: ACTION_FAILED_MESSAGE } });
      } else {
        resolve({ result: { ok: false, message: errorMessageFrom(body, request.status, ACTION_FAILED_MESSAGE) }, challenge: challengeIn(body) });
      }
    });
    request.addEventListener('error', () => resolve({ result: { ok: false, message: ACTION_FAILED_MESSAGE } }));
    const form = new FormData();
    form.append('file', file, file.name);
    if (verifyToken) form.append('verifyToken', verifyToken);
    request.send(form);
  });
}
