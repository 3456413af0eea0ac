// TypeBox schemas of the project routes. Credentials are the provider's fields, checked
// against the credentials plugin's schema of the project's provider.
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../core/schemas.ts';
import { PROVIDERS } from '../credentials/types.ts';
import { CloudACredentials, CloudBCredentials, CloudCCredentials } from '../credentials/schemas.ts';

const Provider = Type.Enum(PROVIDERS);

export const CreateProject = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  provider: Provider,
}, { additionalProperties: false });
export type CreateProject = Static<typeof CreateProject>;
export const UpdateProject = Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false });
/** cloud_a: accessKeyId, secretAccessKey, region, sessionToken?; cloud_b: subscriptionId, tenantId, clientId, clientSecret; cloud_c: projectId, serviceAccountKey. */
export const ProjectCredentials = Type.Partial(Type.Object({ ...CloudACredentials.properties, ...CloudBCredentials.properties, ...CloudCCredentials.properties }), {
  additionalProperties: false, minProperties: 1,
  description: 'The credential fields of the project\'s provider (which are required is checked against it); fields of other providers are ignored',
});

export const CredentialSummary = Type.Object({ hasCredentials: Type.Boolean(), lastUpdated: Nullable(Timestamp) }, { additionalProperties: Type.String() });
export const ProjectView = Type.Object({
  _id: Type.String(), name: Type.String(), provider: Provider, isDefault: Type.Boolean(), repoConfigCount: Type.Integer(),
  credentials: CredentialSummary, createdAt: Timestamp, updatedAt: Timestamp,
});
export const ProjectList = Type.Array(ProjectView);
export const Deleted = Type.Object({ message: Type.String() });
