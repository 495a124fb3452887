import { RESOURCE_DOCUMENT_MAX_BYTES, RESOURCE_DOCUMENT_TOO_LARGE, RESOURCE_DOCUMENT_TYPE_REFUSED, RESOURCE_DOCUMENT_TYPES } from '../../../../../api/shared/resources';
import { isWebAddress, VIDEO_URL_SCHEMES } from '../../../../../api/shared/web-address';

// The Resources screen's calls (spec §2 Resources, §7 resourceVideos, resourceDocuments and their mutations).

export type ResourceKind = 'video' | 'document';

type ResourceBase = { id: string; title: string; description: string; archived: boolean; createdAt: string };
export type VideoRow = ResourceBase & { videoSrc: string };
export type DocumentRow = ResourceBase & { blob: { fileURL: string; fileName: string; fileSizeBytes: number } | null };

const COMMON = 'id title description archived createdAt';
const VIDEO_FIELDS = `${COMMON} videoSrc`;
const DOCUMENT_FIELDS = `${COMMON} blob { fileURL fileName fileSizeBytes }`;
const LIST_ARGS = '$search: String, $filter: ListFilter, $limit: Int, $offset: Int';
const LIST_VALUES = 'search: $search, filter: $filter, limit: $limit, offset: $offset';

export const VIDEOS_QUERY = `query ResourceVideos(${LIST_ARGS}) { resourceVideos(${LIST_VALUES}) { total list { ${VIDEO_FIELDS} } } }`;
export const DOCUMENTS_QUERY = `query ResourceDocuments(${LIST_ARGS}) { resourceDocuments(${LIST_VALUES}) { total list { ${DOCUMENT_FIELDS} } } }`;

const save = (operation: string, field: string, fields: string, inputType: string) => ({
  create: `mutation ${operation}Create($input: ${inputType}!) { ${field}Create(input: $input) { ${fields} } }`,
  update: `mutation ${operation}Update($id: ID!, $input: ${inputType}!) { ${field}Update(id: $id, input: $input) { ${fields} } }`,
  archive: `mutation ${operation}Archive($id: ID!) { ${field}Archive(id: $id) { id archived } }`,
  unarchive: `mutation ${operation}Unarchive($id: ID!) { ${field}Unarchive(id: $id) { id archived } }`,
});

export const MUTATIONS: Record<ResourceKind, ReturnType<typeof save>> = {
  video: save('ResourceVideo', 'resourceVideo', VIDEO_FIELDS, 'ResourceVideoInput'),
  document: save('ResourceDocument', 'resourceDocument', DOCUMENT_FIELDS, 'ResourceDocumentInput'),
};

/** The file picker's accept list and the checks made before anything is sent (the server checks again, content included). */
export const DOCUMENT_ACCEPT = RESOURCE_DOCUMENT_TYPES.map((type) => `.${type}`).join(',');
export const DOCUMENT_TYPES_TEXT = `${RESOURCE_DOCUMENT_TYPES.map((type) => type.toUpperCase()).join(', ')}; up to 25,000,000 bytes.`;

export function documentFileProblem(file: File): string | undefined {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!(RESOURCE_DOCUMENT_TYPES as readonly string[]).includes(extension)) return RESOURCE_DOCUMENT_TYPE_REFUSED;
  if (file.size > RESOURCE_DOCUMENT_MAX_BYTES) return RESOURCE_DOCUMENT_TOO_LARGE;
  return undefined;
}

/** The server's own rule, applied first in the form so a javascript: or data: address is refused in place. */
export const videoUrlProblem = (text: string) => (isWebAddress(text) ? undefined : VIDEO_URL_SCHEMES);

