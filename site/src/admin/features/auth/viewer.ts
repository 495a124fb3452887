import * as v from 'valibot';

// Role names as the spec spells them; the server supplies the label.
export const ROLE_NAMES = ['SUPER_ADMIN', 'ORGANISATION_OWNER', 'ORGANISATION_ADMIN', 'MEMBER', 'GUEST_MEMBER'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const VIEWER_QUERY =
  'query Viewer { viewer { id email firstName lastName role { name label permissions } organisation { id name slug } } }';

const viewerSchema = v.object({
  id: v.string(),
  email: v.string(),
  // Names can be missing for accounts created from an invite.
  firstName: v.nullish(v.string(), ''),
  lastName: v.nullish(v.string(), ''),
  role: v.object({
    name: v.picklist(ROLE_NAMES),
    label: v.string(),
    permissions: v.array(v.string()),
  }),
  organisation: v.nullable(v.object({ id: v.string(), name: v.string(), slug: v.string() })),
});

const viewerDataSchema = v.object({ viewer: v.nullable(viewerSchema) });

export type Viewer = v.InferOutput<typeof viewerSchema>;

// undefined: the answer did not have the expected shape; null: no viewer.
export function parseViewerData(data: unknown): Viewer | null | undefined {
  const result = v.safeParse(viewerDataSchema, data);
  return result.success ? result.output.viewer : undefined;
}

export function displayName(viewer: Viewer): string {
  const name = `${viewer.firstName} ${viewer.lastName}`.trim();
  return name === '' ? viewer.email : name;
}

// Guest members have no dashboard; their home is the organisations list.
export function homePathFor(viewer: Viewer): string {
  return viewer.role.name === 'GUEST_MEMBER' ? '/admin/manage/organisations' : '/admin/dashboard';
}
