/** What is stored for an upload, and whether its identifying metadata could be removed (shown to staff). */
export interface CleanedFile {
  bytes: Uint8Array;
  /** False when the format cannot be cleaned (legacy Office, encrypted PDF…): the bytes are then the upload's own. */
  metadataRemoved: boolean;
}
