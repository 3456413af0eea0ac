// TypeBox schemas of the source-host routes, with their Static<> types beside them.
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, pageFields, PagedList } from '../../core/schemas.ts';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
export const StartQuery = Type.Object({
  force: Type.Optional(Bool),
  cli: Type.Optional(Bool),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2000, description: 'CLI flow: the CLI\'s loopback address, http://127.0.0.1:<port>[/path]' })),
});
export type StartQuery = Static<typeof StartQuery>;
export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 512 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 2000 })),
});
export const AddAccountQuery = Type.Object({ token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'The JWT of the signed-in user (a browser navigates here; else the Authorization header). Proves who starts, never a callback' })) });
export const ExchangeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 512 }) });
export const SessionAnswer = Type.Object({
  token: Type.String(), refreshToken: Type.String(),
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Type.String() }),
});

export const ScmIdParams = Type.Object({ scmId: Type.String({ pattern: '^[0-9]{1,20}$', description: "The host's account id" }) });
export const SetActiveAccountBody = Type.Object({ scmId: Type.String({ pattern: '^[0-9]{1,20}$' }) });
export const AccountView = Type.Object({
  scmId: Type.String(), login: Type.String(), name: Nullable(Type.String()), email: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()), active: Type.Boolean(), linkedAt: Timestamp,
});
export const AccountList = Type.Object({ accounts: Type.Array(AccountView) });
export const ActiveAccount = Type.Object({ message: Type.String(), scmId: Type.String() });
export const Message = Type.Object({ message: Type.String() });

export const InstallQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 4096, description: 'The JWT, when a browser navigates here (else the Authorization header)' })) });
export const InstallAnswer = Type.Object({ installUrl: Type.String() });
export const AppCallbackQuery = Type.Object({
  installation_id: Type.Optional(Type.String({ maxLength: 30 })),
  setup_action: Type.Optional(Type.String({ maxLength: 50 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  code: Type.Optional(Type.String({ maxLength: 512, description: 'Sent when the app requests user authorization during installation (required: it proves the installation is the user\'s)' })),
});
const InstallationId = Type.String({ pattern: '^[0-9]{1,20}$', description: "The host's installation id" });
export const InstallationParams = Type.Object({ installationId: InstallationId });
export const SetActiveInstallationBody = Type.Object({ installationId: InstallationId });
export const InstallationView = Type.Object({
  installationId: Type.String(), accountLogin: Type.String(), accountType: Nullable(Type.String()), active: Type.Boolean(),
  repositoryCount: Type.Integer(), syncedAt: Nullable(Timestamp), createdAt: Timestamp,
});
export const InstallationList = Type.Object({ installations: Type.Array(InstallationView) });
export const SyncAnswer = Type.Object({ installationId: Type.String(), repositoryCount: Type.Integer(), syncedAt: Timestamp });

export const Repository = Type.Object({
  id: Type.Integer(), name: Type.String(), full_name: Type.String(), owner: Type.Object({ login: Type.String() }),
  private: Type.Boolean(), default_branch: Type.String(),
});
export const RepositoryPage = PagedList(Repository);
export const RepositoryQuery = Type.Object(pageFields());
const Segment = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' });
export const RepoParams = Type.Object({ owner: Segment, repo: Segment });
export const Branch = Type.Object({ name: Type.String(), protected: Type.Boolean() });
