// Report documents shared by the list and the detail of this feature.

export type TeamMember = {
  owner: boolean;
  user: {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    suspended: boolean;
    role: string;
    organisationID: string | null;
    organisationName: string | null;
  };
};

export type ReportRow = {
  id: string;
  reportID: string;
  status: string;
  priority: string;
  completedAt: string | null;
  archived: boolean;
  deletedAt: string | null;
  assignedUsers: TeamMember[];
  tags: { id: string; name: string; isInternal: boolean }[];
  submissionForm: { id: string; name: string; type: string; organisationID: string; organisationName: string };
};

const TEAM_FIELDS = 'owner user { id firstName lastName email suspended role organisationID organisationName }';
export const ROW_FIELDS = `id reportID status priority completedAt archived deletedAt
  assignedUsers { ${TEAM_FIELDS} } tags { id name isInternal }
  submissionForm { id name type organisationID organisationName }`;

export const LIST_QUERY = `query ReportList($search: ReportSearchInput, $limit: Int, $offset: Int) {
  reportSubmissions(search: $search, limit: $limit, offset: $offset) { total list { ${ROW_FIELDS} } } }`;

export const TAGS_QUERY = `query ReportTags($organisationID: ID) {
  tags(organisationID: $organisationID, filter: Active, limit: 100) { total list { id name isInternal } } }`;

export const TAG_QUERY = 'query ReportTag($id: ID!) { tagGet(id: $id) { id name } }';

export const ARCHIVE_MUTATION = 'mutation ReportArchive($id: ID!) { reportSubmissionArchive(id: $id) { id archived } }';
export const UNARCHIVE_MUTATION = 'mutation ReportUnarchive($id: ID!) { reportSubmissionUnarchive(id: $id) { id archived } }';
export const HARD_DELETE_MUTATION = 'mutation ReportHardDelete($id: ID!) { reportSubmissionHardDelete(id: $id) { id deletedAt } }';

export type Tag = { id: string; name: string; isInternal: boolean };

export { TEAM_FIELDS };
