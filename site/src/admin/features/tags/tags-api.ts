// The documents the Tags page sends (spec §7 Tags; decision 038).

export type TagRow = {
  id: string;
  name: string;
  isInternal: boolean;
  archived: boolean;
  updatedAt: string;
  submissionsCount: number;
};

export type TagListData = { tags: { total: number; list: TagRow[] } };

const ROW_FIELDS = 'id name isInternal archived updatedAt submissionsCount';

export const TAGS_QUERY = `query Tags($organisationID: ID, $search: String, $filter: ListFilter, $limit: Int, $offset: Int) {
  tags(organisationID: $organisationID, search: $search, filter: $filter, limit: $limit, offset: $offset) { total list { ${ROW_FIELDS} } } }`;

export const CREATE_MUTATION = `mutation TagCreate($organisationID: ID, $name: String!) { tagCreate(organisationID: $organisationID, name: $name) { ${ROW_FIELDS} } }`;
export const UPDATE_MUTATION = `mutation TagUpdate($id: ID!, $newName: String!) { tagUpdate(id: $id, newName: $newName) { ${ROW_FIELDS} } }`;
export const ARCHIVE_MUTATION = `mutation TagArchive($id: ID!) { tagArchive(id: $id) { ${ROW_FIELDS} } }`;
export const UNARCHIVE_MUTATION = `mutation TagUnarchive($id: ID!) { tagUnarchive(id: $id) { ${ROW_FIELDS} } }`;

// Reserved tags are the console's own (spec §5, §8): their actions stay visible but disabled, saying why.
export const CANNOT_EDIT = 'This item cannot be edited.';
export const CANNOT_DELETE = 'This item cannot be deleted.';
