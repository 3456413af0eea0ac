// The only file that touches the source-host collections; declares their indexes.
// - scm_accounts: host accounts linked to users (a user may link several, one is active). The
//   unique index on scmId makes "one host account, one user" hold under concurrent callbacks.
// - scm_installations: app installations recorded for an organization (one active), with the
//   repositories the last sync stored. An installation belongs to one organization at a time:
//   the unique index on installationId decides under concurrent callbacks (the insert wins or
//   gets a duplicate key), since updates are not atomic with their filter on FerretDB.
import type { CollectionSpec, Database } from '../../core/db.ts';

export interface ScmAccount {
  _id: string;
  userId: string;
  /** The host's numeric account id, as a string. */
  scmId: string;
  login: string;
  name: string | null;
  email: string | null;
  avatarUrl: string | null;
  /** The user access token, sealed (ctx.sealer). */
  token: string;
  scope: string;
  active: boolean;
  linkedAt: Date;
  updatedAt: Date;
}

export interface StoredRepo { id: number; name: string; full_name: string; owner: { login: string }; private: boolean; default_branch: string }

export interface ScmInstallation {
  _id: string;
  orgId: string;
  installationId: string;
  accountLogin: string;
  accountType: string | null;
  active: boolean;
  repositories: StoredRepo[];
  syncedAt: Date | null;
  installedBy: string;
  createdAt: Date;
}

export const ACCOUNTS: CollectionSpec = {
  name: 'scm_accounts', owner: 'plugins/scm',
  indexes: [{ key: { scmId: 1 }, unique: true }, { key: { userId: 1, linkedAt: 1 } }, { key: { userId: 1, scmId: 1 } }, { key: { userId: 1, active: 1 } }],
};
export const INSTALLATIONS: CollectionSpec = {
  name: 'scm_installations', owner: 'plugins/scm',
  indexes: [
    { key: { installationId: 1 }, unique: true },
    { key: { orgId: 1, installationId: 1 }, unique: true }, { key: { orgId: 1, createdAt: 1 } }, { key: { orgId: 1, active: 1 } },
  ],
};

export function createScmStore(db: Database) {
  const accounts = db.collection<ScmAccount>(ACCOUNTS);
  const installations = db.collection<ScmInstallation>(INSTALLATIONS);
  return {
    accountByScmId: (scmId: string) => accounts.findOne({ scmId }),
    accountsOf: (userId: string) => accounts.find({ userId }).sort({ linkedAt: 1 }).limit(100).toArray(),
    userAccount: (userId: string, scmId: string) => accounts.findOne({ userId, scmId }),
    activeAccount: (userId: string) => accounts.findOne({ userId, active: true }),
    /** Throws a duplicate-key error when the host account is linked already (to anyone). */
    insertAccount: async (account: ScmAccount) => { await accounts.insertOne(account); },
    async refreshAccount(userId: string, scmId: string, set: Pick<ScmAccount, 'login' | 'name' | 'email' | 'avatarUrl' | 'token' | 'scope' | 'updatedAt'>) {
      await accounts.updateOne({ userId, scmId }, { $set: set });
    },
    /** Makes one linked account the active one: the others first, so at most one stays active. */
    async setActiveAccount(userId: string, scmId: string) {
      await accounts.updateMany({ userId, active: true }, { $set: { active: false } });
      await accounts.updateOne({ userId, scmId }, { $set: { active: true } });
    },
    removeAccount: async (userId: string, scmId: string) => (await accounts.deleteOne({ userId, scmId })).deletedCount > 0,
    removeUserAccounts: (userId: string) => accounts.deleteMany({ userId }),

    installations: (orgId: string) => installations.find({ orgId }).sort({ createdAt: 1 }).limit(100).toArray(),
    installation: (orgId: string, installationId: string) => installations.findOne({ orgId, installationId }),
    activeInstallation: (orgId: string) => installations.findOne({ orgId, active: true }),
    /** Throws a duplicate-key error when the installation is recorded already (for any organization). */
    insertInstallation: async (doc: ScmInstallation) => { await installations.insertOne(doc); },
    /** The organization holding the installation; null when none does. Not org-scoped on purpose: it decides ownership. */
    installationHolder: async (installationId: string) => (await installations.findOne({ installationId }, { projection: { orgId: 1 } }))?.orgId ?? null,
    /** A second callback for an installation the organization holds: the account it is on may have been renamed. */
    async refreshInstallation(orgId: string, installationId: string, set: Pick<ScmInstallation, 'accountLogin' | 'accountType' | 'installedBy'>) {
      await installations.updateOne({ orgId, installationId }, { $set: set });
    },
    async setActiveInstallation(orgId: string, installationId: string) {
      await installations.updateMany({ orgId, active: true }, { $set: { active: false } });
      await installations.updateOne({ orgId, installationId }, { $set: { active: true } });
    },
    async setRepositories(orgId: string, installationId: string, repositories: StoredRepo[], at: Date) {
      await installations.updateOne({ orgId, installationId }, { $set: { repositories, syncedAt: at } });
    },
    removeInstallation: async (orgId: string, installationId: string) => (await installations.deleteOne({ orgId, installationId })).deletedCount > 0,
    removeOrg: async (orgId: string) => { await installations.deleteMany({ orgId }); },
  };
}
export type ScmStore = ReturnType<typeof createScmStore>;
