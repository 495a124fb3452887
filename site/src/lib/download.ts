// Saving files in the browser: blobs made on the page (credentials) and files the server sends
// as an answer to a POST (the console's exports), named from Content-Disposition.

import { errorMessageFrom, FALLBACK_ERROR_MESSAGE, type HttpResult } from './http';

/** Hands a blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers. Leaving the page revokes it too: a
  // page kept in the back/forward cache would otherwise keep the address, listed among the
  // browser's downloads, able to open the file (the reporter's credentials) again.
  const revoke = () => {
    URL.revokeObjectURL(url);
    window.removeEventListener('pagehide', revoke);
  };
  window.addEventListener('pagehide', revoke);
  window.setTimeout(revoke, 10_000);
}

/**
 * The file name a Content-Disposition header gives: the RFC 6266 `filename*` (UTF-8) form first,
 * then the plain quoted or bare `filename`. Path parts are dropped; nothing usable gives `fallback`.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = undefined;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : fallback;
}

/**
 * Fetches a file from a same-origin endpoint (a GET, or a POST of `body` as JSON) and saves it.
 * Failures come back as the server's message, never as a thrown error, so the page can show it
 * where it is instead of navigating to a bare error body.
 */
export async function downloadFile(url: string, fallbackName: string, body?: unknown): Promise<HttpResult<string>> {
  let response: Response;
  try {
    const init: RequestInit = { method: 'GET', credentials: 'same-origin', headers: { accept: '*/*' } };
    if (body !== undefined) {
      init.method = 'POST';
      init.headers = { 'content-type': 'application/json', accept: '*/*' };
      init.body = JSON.stringify(body);
    }
    response = await fetch(url, init);
  } catch {
    return { ok: false, status: 0, message: FALLBACK_ERROR_MESSAGE };
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { ok: false, status: response.status, message: errorMessageFrom(parsed, response.status) };
  }
  const fileName = fileNameFromDisposition(response.headers.get('content-disposition'), fallbackName);
  saveBlob(await response.blob(), fileName);
  return { ok: true, status: response.status, data: fileName };
}
