// The form template documents the templates list sends (the contract of issue 9).

export type TemplateRow = { id: string; name: string; createdAt: string; archived: boolean };

const ROW_FIELDS = 'id name createdAt archived';

export const TEMPLATES_QUERY = `query FormTemplates($search: String, $filter: ListFilter, $limit: Int, $offset: Int) {
  reportFormTemplates(search: $search, filter: $filter, limit: $limit, offset: $offset) { total list { ${ROW_FIELDS} } } }`;

export const ARCHIVE_MUTATION = `mutation FormTemplateArchive($id: ID!) { reportFormTemplateArchive(id: $id) { ${ROW_FIELDS} } }`;
export const UNARCHIVE_MUTATION = `mutation FormTemplateUnarchive($id: ID!) { reportFormTemplateUnarchive(id: $id) { ${ROW_FIELDS} } }`;
