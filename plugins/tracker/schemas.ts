// TypeBox schemas of the tracker routes (SPEC "Tracker integration"; Jira Cloud compatible).
import { Type, type Static } from 'typebox';
import { Id, Nullable } from '../../core/schemas.ts';

export const InitiateView = Type.Object({ authorizationUrl: Type.String() });
export const CallbackQuery = Type.Object({
  state: Type.String({ minLength: 1, maxLength: 200 }),
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  error: Type.Optional(Type.String({ maxLength: 200, description: 'Sent by the authorization server when the user declined' })),
});
export const ConfigView = Type.Object({
  connected: Type.Boolean(),
  siteUrl: Nullable(Type.String()),
  defaultProject: Nullable(Type.String()),
  defaultIssueType: Nullable(Type.String()),
});
export type ConfigView = Static<typeof ConfigView>;
const ProjectKey = Type.String({ pattern: '^[A-Z][A-Z0-9_]{0,9}$', description: 'A Jira project key' });
export const ConfigBody = Type.Object({
  defaultProject: Type.Optional(Nullable(ProjectKey)),
  defaultIssueType: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9 _-]+$' }))),
});
export type ConfigBody = Static<typeof ConfigBody>;
export const TestView = Type.Object({ success: Type.Literal(true), siteUrl: Type.String(), user: Type.String({ description: "The connected account's display name" }) });
export const Project = Type.Object({ id: Type.String(), key: Type.String(), name: Type.String() });
export const IssueType = Type.Object({ id: Type.String(), name: Type.String(), subtask: Type.Boolean() });
export const Priority = Type.Object({ id: Type.String(), name: Type.String() });
export const ProjectParams = Type.Object({ projectKey: ProjectKey });
export const WidgetParams = Type.Object({ widgetId: Id });
export const TicketView = Type.Object({ key: Type.String(), url: Type.String(), created: Type.Boolean({ description: 'false: the widget already had this ticket' }) });
export const VerifyTicketView = Type.Object({
  exists: Type.Boolean(),
  key: Nullable(Type.String()),
  url: Nullable(Type.String()),
  status: Nullable(Type.String({ description: "The issue's workflow status (To Do, In Progress, Done...)" })),
});
export const Message = Type.Object({ message: Type.String() });
