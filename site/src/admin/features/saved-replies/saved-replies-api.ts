import { TEXT_LIMITS } from '../../../../../api/shared/limits';

// The documents the Saved Replies page and the chat composer send (decision 051).

export type SavedReplyRow = { id: string; title: string; body: string; archived: boolean; updatedAt: string };

export type SavedRepliesData = { savedReplies: SavedReplyRow[] };

const ROW_FIELDS = 'id title body archived updatedAt';

export const SAVED_REPLIES_QUERY = `query SavedReplies($organisationID: ID) { savedReplies(organisationID: $organisationID) { ${ROW_FIELDS} } }`;
export const CREATE_MUTATION = `mutation SavedReplyCreate($organisationID: ID, $input: SavedReplyInput!) { savedReplyCreate(organisationID: $organisationID, input: $input) { ${ROW_FIELDS} } }`;
export const UPDATE_MUTATION = `mutation SavedReplyUpdate($id: ID!, $input: SavedReplyInput!) { savedReplyUpdate(id: $id, input: $input) { ${ROW_FIELDS} } }`;
export const ARCHIVE_MUTATION = `mutation SavedReplyArchive($id: ID!) { savedReplyArchive(id: $id) { ${ROW_FIELDS} } }`;

export const BODY_MAX = TEXT_LIMITS.savedReplyBody.max;
