// The documents the Subscribers page sends (spec §7 Invites and subscribers; decision 038).

export type SubscriberRow = {
  id: string;
  organisationID: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: string;
  updatedAt: string;
};

export type SubscriberListData = { organisationEmailSubscribers: { total: number; list: SubscriberRow[] } };
export type SubscriberCreateData = { organisationEmailSubscriberCreate: SubscriberRow };

const ROW_FIELDS = 'id organisationID firstName lastName email createdAt updatedAt';

export const SUBSCRIBERS_QUERY = `query OrganisationEmailSubscribers($organisationID: ID) {
  organisationEmailSubscribers(organisationID: $organisationID) { total list { ${ROW_FIELDS} } } }`;

export const CREATE_MUTATION = `mutation OrganisationEmailSubscriberCreate($organisationID: ID, $input: OrganisationEmailSubscriberInput!) {
  organisationEmailSubscriberCreate(organisationID: $organisationID, input: $input) { ${ROW_FIELDS} } }`;

export const DELETE_MUTATION = `mutation OrganisationEmailSubscriberDelete($id: ID!) { organisationEmailSubscriberDelete(id: $id) { id } }`;

// The spec's confirmation wording (§8): 'Successfully {done} {name}'.
export const CREATED_TEXT = 'Successfully created subscriber';
export const DELETED_TEXT = 'Successfully deleted subscriber';
