// Cloud credentials of an organization: sealed at rest, masked on read, decrypted only for
// the /full routes and for other plugins (the detection engine) through
// the credentials service (deps.credentials.values). No HTTP here.
import type { AppContext } from '../../core/context.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { CredentialStore, Provider, StoredCredential } from './store.ts';
import type { CloudACredentials, CloudBCredentials, CloudCCredentials, RotationStatus } from './schemas.ts';
import { summarizeCloudA, summarizeCloudB, summarizeCloudC } from './mask.ts';

export interface CredentialValues { cloud_a: CloudACredentials; cloud_b: CloudBCredentials; cloud_c: CloudCCredentials }

/** What the scan inputs read (deps.credentials). */
export interface CloudCredentialsService {
  /** The organization's decrypted values for one provider, or null when none are stored. */
  get<P extends Provider>(orgId: string, provider: P): Promise<CredentialValues[P] | null>;
}

interface ProviderRules<P extends Provider> {
  label: string;
  /** Keeps exactly the provider's fields, whatever else the body carried. */
  pick(input: CredentialValues[P]): CredentialValues[P];
  summarize(values: CredentialValues[P]): object;
}

const RULES: { [P in Provider]: ProviderRules<P> } = {
  cloud_a: {
    label: 'Cloud A',
    pick: ({ accessKeyId, secretAccessKey, region, sessionToken }) =>
      (sessionToken === undefined ? { accessKeyId, secretAccessKey, region } : { accessKeyId, secretAccessKey, region, sessionToken }),
    summarize: summarizeCloudA,
  },
  cloud_b: {
    label: 'Cloud B',
    pick: ({ subscriptionId, tenantId, clientId, clientSecret }) => ({ subscriptionId, tenantId, clientId, clientSecret }),
    summarize: summarizeCloudB,
  },
  cloud_c: {
    label: 'Cloud C',
    pick: ({ projectId, serviceAccountKey }) => ({ projectId, serviceAccountKey }),
    summarize: summarizeCloudC,
  },
};

/**
 * Rotation thresholds (SPEC "Limits": warning 30 days, required 90 days, given as example
 * values; these are ours). Rotation status is computed from the organization's stored
 * cloud credentials: the oldest `lastUpdated` across cloud_a, cloud_b and cloud_c decides,
 * because one stale credential is enough to need a rotation. Its whole days of age give
 * rotationRecommended (age >= warningDays), rotationRequired (age >= requiredDays) and
 * daysUntilRequired (requiredDays - age, never below 0: 0 means rotate now). With no
 * credentials stored there is nothing to rotate: both flags false, daysUntilRequired and
 * lastRotatedAt null.
 */
export const ROTATION = { warningDays: 30, requiredDays: 90 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export function rotationStatus(stored: Pick<StoredCredential, 'lastUpdated'>[], now = new Date()): RotationStatus {
  const thresholds = { ...ROTATION };
  if (!stored.length) {
    return { rotationRequired: false, rotationRecommended: false, daysUntilRequired: null, lastRotatedAt: null, thresholds };
  }
  const oldest = stored.reduce((a, b) => (b.lastUpdated < a.lastUpdated ? b : a)).lastUpdated;
  const ageDays = Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / DAY_MS));
  return {
    rotationRequired: ageDays >= ROTATION.requiredDays,
    rotationRecommended: ageDays >= ROTATION.warningDays,
    daysUntilRequired: Math.max(0, ROTATION.requiredDays - ageDays),
    lastRotatedAt: oldest.toISOString(),
    thresholds,
  };
}

export function createCredentialService(ctx: AppContext, store: CredentialStore) {
  // The sealed text carries its organization and provider, and open() checks them: a sealed
  // value copied into another organization's document is refused, not decrypted for it.
  const seal = <P extends Provider>(orgId: string, provider: P, values: CredentialValues[P]) =>
    ctx.sealer.seal(JSON.stringify({ orgId, provider, values }));

  function open<P extends Provider>(doc: StoredCredential, provider: P): CredentialValues[P] {
    try {
      const payload = JSON.parse(ctx.sealer.open(doc.sealed)) as { orgId: string; provider: string; values: CredentialValues[P] };
      if (payload.orgId !== doc.orgId || payload.provider !== provider) throw new Error('sealed value belongs to another record');
      return payload.values;
    } catch (err) {
      // A changed ENCRYPTION_KEY or a tampered document: say so rather than a bare 500.
      ctx.log.error({ err: (err as Error).message, orgId: doc.orgId, provider }, 'cloud credentials cannot be decrypted');
      throw new AppError('credentials_unreadable', {
        message: `Stored ${RULES[provider].label} credentials cannot be decrypted; save them again`,
      });
    }
  }

  const summaryOf = (doc: Pick<StoredCredential, 'summary' | 'lastUpdated'>) => ({ hasCredentials: true, ...doc.summary, lastUpdated: doc.lastUpdated.toISOString() });

  async function values<P extends Provider>(orgId: string, provider: P): Promise<CredentialValues[P] | null> {
    const doc = await store.get(orgId, provider);
    return doc ? open(doc, provider) : null;
  }

  return {
    async summary(orgId: string, provider: Provider) {
      const doc = await store.get(orgId, provider);
      return doc ? summaryOf(doc) : { hasCredentials: false };
    },

    async full<P extends Provider>(orgId: string, provider: P) {
      const doc = await store.get(orgId, provider);
      if (!doc) throw notFound(`${RULES[provider].label} credentials`);
      return { ...open(doc, provider), lastUpdated: doc.lastUpdated.toISOString() };
    },

    async set<P extends Provider>(orgId: string, provider: P, input: CredentialValues[P]) {
      const rules = RULES[provider] as ProviderRules<P>;
      const kept = rules.pick(input);
      const doc = { sealed: seal(orgId, provider, kept), summary: rules.summarize(kept) as Record<string, string>, lastUpdated: new Date() };
      await store.put(orgId, provider, doc);
      return summaryOf(doc);
    },

    async remove(orgId: string, provider: Provider) {
      if (!(await store.remove(orgId, provider))) throw notFound(`${RULES[provider].label} credentials`);
      return { message: `${RULES[provider].label} credentials deleted` };
    },

    async rotation(orgId: string) {
      return rotationStatus(await store.list(orgId));
    },

    /** Number of cloud providers with stored credentials: the quota's cloudAccounts usage. */
    count: (orgId: string) => store.count(orgId),

    values,
  };
}
export type CredentialService = ReturnType<typeof createCredentialService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { credentials: CredentialService }
}
