// The only file that touches the cloud-events collections; declares their indexes.
// - cloud_events: one write call each, unique per (orgId, eventId): a duplicate is refused by
//   the index and changes nothing. `resourceIds` is multikey: the cause lookup and the
//   resourceId filter are equality on it, then eventTime.
// - cloud_event_tokens: `ce_` tokens by hash (unique), listed per organization.
// - cloud_event_checks: one pending targeted re-check per (config, resource) while its debounce
//   window is open (`pendingKey` "pending", unique), then the scan that ran it.
// - noise_observations / noise_rules: an attribute that changed with no write event, once per
//   (scan, address, attribute) by a unique index (the count is taken from these records), and
//   the rule learned per (organization, resource type, attribute).
import type { CollectionSpec, Database } from '../../core/db.ts';
import type { Filter } from 'mongodb';
import type { ParsedEvent } from './cloudtrail.ts';

export interface CloudEvent extends ParsedEvent { _id: string; orgId: string; receivedAt: Date }
export interface EventToken { _id: string; orgId: string; name: string; prefix: string; hash: string; createdBy: string | null; createdAt: Date; lastUsedAt: Date | null }
export interface PendingCheck {
  _id: string; orgId: string; repositoryConfig: string; resourceId: string; addresses: string[];
  eventId: string; dueAt: Date; pendingKey: string; createdAt: Date;
}
export interface NoiseObservation { _id: string; orgId: string; resourceType: string; attribute: string; scanId: string; address: string; direction: 'changed' | 'reverted'; at: Date }
export interface NoiseRule {
  _id: string; orgId: string; resourceType: string; attribute: string; observations: number;
  learnedAt: Date | null; enabled: boolean; updatedAt: Date;
}

export const CLOUD_EVENTS: CollectionSpec = {
  name: 'cloud_events', owner: 'plugins/cloud-events',
  indexes: [
    { key: { orgId: 1, eventId: 1 }, unique: true },
    { key: { orgId: 1, eventTime: -1, _id: -1 } },
    { key: { orgId: 1, resourceIds: 1, eventTime: -1, _id: -1 } },
    { key: { orgId: 1, eventName: 1, eventTime: -1, _id: -1 } },
    { key: { orgId: 1, resourceIds: 1, eventName: 1, eventTime: -1, _id: -1 } },
    { key: { orgId: 1, receivedAt: 1 } },
    { key: { receivedAt: 1 } },
  ],
};
export const EVENT_TOKENS: CollectionSpec = {
  name: 'cloud_event_tokens', owner: 'plugins/cloud-events',
  indexes: [{ key: { hash: 1 }, unique: true }, { key: { orgId: 1, createdAt: -1 } }],
};
export const PENDING_CHECKS: CollectionSpec = {
  name: 'cloud_event_checks', owner: 'plugins/cloud-events',
  indexes: [
    { key: { orgId: 1, repositoryConfig: 1, resourceId: 1, pendingKey: 1 }, unique: true },
    { key: { orgId: 1, repositoryConfig: 1, pendingKey: 1, dueAt: 1 } },
    { key: { createdAt: 1 } },
  ],
};
export const NOISE_OBSERVATIONS: CollectionSpec = {
  name: 'noise_observations', owner: 'plugins/cloud-events',
  indexes: [
    { key: { orgId: 1, resourceType: 1, attribute: 1, scanId: 1, address: 1 }, unique: true },
    { key: { orgId: 1, resourceType: 1, attribute: 1, direction: 1 } },
  ],
};
export const NOISE_RULES: CollectionSpec = {
  name: 'noise_rules', owner: 'plugins/cloud-events',
  indexes: [
    { key: { orgId: 1, resourceType: 1, attribute: 1 }, unique: true },
    { key: { orgId: 1, learnedAt: -1, _id: -1 } },
  ],
};

export const PENDING = 'pending';

export interface EventFilter { resourceId?: string; actor?: string; eventName?: string; from?: Date; to?: Date }

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function eventFilter(orgId: string, f: EventFilter): Filter<CloudEvent> {
  const filter: Filter<CloudEvent> = { orgId };
  if (f.resourceId) filter.resourceIds = f.resourceId;
  if (f.eventName) filter.eventName = f.eventName;
  if (f.from || f.to) filter.eventTime = { ...(f.from ? { $gte: f.from } : {}), ...(f.to ? { $lte: f.to } : {}) };
  // A substring of the identity's ARN: a range over the index above, never an equality key.
  if (f.actor) filter['userIdentity.arn'] = { $regex: escapeRegex(f.actor), $options: 'i' };
  return filter;
}
const NEWEST = { eventTime: -1, _id: -1 } as const;
const isDuplicate = (e: { code?: number; err?: { code?: number } }) => (e.code ?? e.err?.code) === 11000;
type WriteErrors = { writeErrors?: { code?: number; index?: number; err?: { index: number; code?: number } }[] | object };
const writeErrorsOf = (err: unknown) => {
  const list = (err as WriteErrors).writeErrors;
  return list ? (Array.isArray(list) ? list : [list]) as { code?: number; index?: number; err?: { index: number; code?: number } }[] : null;
};

export function createCloudEventStore(db: Database) {
  const events = db.collection<CloudEvent>(CLOUD_EVENTS);
  const tokens = db.collection<EventToken>(EVENT_TOKENS);
  const checks = db.collection<PendingCheck>(PENDING_CHECKS);
  const observations = db.collection<NoiseObservation>(NOISE_OBSERVATIONS);
  const rules = db.collection<NoiseRule>(NOISE_RULES);

  /** Inserts what it can (unordered); answers the indexes of documents a unique key refused. */
  async function insertSome<T extends { orgId: string }>(col: typeof events | typeof checks | typeof observations, orgId: string, docs: T[]): Promise<Set<number>> {
    if (!docs.length) return new Set();
    if (docs.some((d) => d.orgId !== orgId)) throw new Error('cloud-events: a record of another organization');
    try {
      await (col as unknown as { insertMany(d: T[], o: object): Promise<unknown> }).insertMany(docs, { ordered: false });
      return new Set();
    } catch (err) {
      const list = writeErrorsOf(err);
      if (!list || list.some((e) => !isDuplicate(e))) throw err;
      return new Set(list.map((e) => e.index ?? e.err!.index));
    }
  }

  return {
    // --- tokens
    insertToken: async (t: EventToken) => { await tokens.insertOne(t); },
    listTokens: (orgId: string) => tokens.find({ orgId }).sort({ createdAt: -1 }).limit(500).toArray(),
    tokenByHash: (hash: string) => tokens.findOne({ hash }),
    async removeToken(orgId: string, id: string) {
      return tokens.findOneAndDelete({ _id: id, orgId });
    },
    async touchToken(id: string, at: Date) { await tokens.updateOne({ _id: id }, { $set: { lastUsedAt: at } }); },

    // --- events
    /** Answers the eventIds refused as duplicates. */
    async insertEvents(orgId: string, docs: CloudEvent[]): Promise<Set<string>> {
      const refused = await insertSome(events, orgId, docs);
      return new Set([...refused].map((i) => docs[i].eventId));
    },
    async page(orgId: string, f: EventFilter, skip: number, limit: number) {
      const filter = eventFilter(orgId, f);
      const [rows, total] = await Promise.all([events.find(filter).sort(NEWEST).skip(skip).limit(limit).toArray(), events.countDocuments(filter)]);
      return { rows, total };
    },
    /** Successful write events touching any of the ids, newest first, within the window. */
    touching: (orgId: string, resourceIds: string[], from: Date | null, to: Date) =>
      events.find({ orgId, resourceIds: { $in: resourceIds }, eventTime: from ? { $gte: from, $lte: to } : { $lte: to } })
        .sort(NEWEST).limit(5000).toArray(),
    /** Whether the organization sent any write event with a time in the window. */
    async anyBetween(orgId: string, from: Date | null, to: Date) {
      return (await events.find({ orgId, eventTime: from ? { $gte: from, $lte: to } : { $lte: to } }, { projection: { _id: 1 } }).sort(NEWEST).limit(1).toArray()).length > 0;
    },
    /** Retention: events received before the cutoff, of these organizations (or of all when null). */
    async purge(orgIds: string[] | null, before: Date) {
      const res = await events.deleteMany(orgIds ? { orgId: { $in: orgIds }, receivedAt: { $lt: before } } : { receivedAt: { $lt: before } });
      return res.deletedCount;
    },

    // --- pending targeted re-checks
    /** Answers the indexes of checks already pending for the same (config, resource). */
    insertChecks: (orgId: string, docs: PendingCheck[]) => insertSome(checks, orgId, docs),
    pendingOf: (orgId: string, repositoryConfig: string, dueBy: Date) =>
      checks.find({ orgId, repositoryConfig, pendingKey: PENDING, dueAt: { $lte: dueBy } }).limit(5000).toArray(),
    async markRan(orgId: string, ids: string[], scanId: string) {
      await checks.updateMany({ orgId, _id: { $in: ids } }, { $set: { pendingKey: `scan:${scanId}` } });
    },
    async purgeChecks(before: Date) { await checks.deleteMany({ createdAt: { $lt: before }, pendingKey: { $ne: PENDING } }); },

    // --- noise
    /** Records observations once each; answers how many were new. */
    async observe(orgId: string, docs: NoiseObservation[]) {
      const refused = await insertSome(observations, orgId, docs);
      return docs.length - refused.size;
    },
    countObservations: (orgId: string, resourceType: string, attribute: string, direction: NoiseObservation['direction']) =>
      observations.countDocuments({ orgId, resourceType, attribute, direction }),
    rulesOf: (orgId: string) => rules.find({ orgId }).sort({ learnedAt: -1, _id: -1 }).limit(1000).toArray(),
    ruleOf: (orgId: string, id: string) => rules.findOne({ _id: id, orgId }),
    ruleFor: (orgId: string, resourceType: string, attribute: string) => rules.findOne({ orgId, resourceType, attribute }),
    /** The rule's count (and learnedAt the first time the threshold is reached); created enabled. */
    async upsertRule(orgId: string, resourceType: string, attribute: string, set: Pick<NoiseRule, 'observations' | 'updatedAt'> & { learnedAt?: Date }, id: string) {
      try {
        await rules.updateOne({ orgId, resourceType, attribute }, {
          $set: set,
          $setOnInsert: { _id: id, orgId, resourceType, attribute, enabled: true, ...(set.learnedAt ? {} : { learnedAt: null }) },
        }, { upsert: true });
      } catch (err) {
        // Two scans creating the same rule at once: the other's record holds.
        if ((err as { code?: number }).code !== 11000) throw err;
        await rules.updateOne({ orgId, resourceType, attribute }, { $set: set });
      }
    },
    async setRuleEnabled(orgId: string, id: string, enabled: boolean, at: Date) {
      return rules.findOneAndUpdate({ _id: id, orgId }, { $set: { enabled, updatedAt: at } }, { returnDocument: 'after' });
    },

    async removeOrg(orgId: string) {
      await Promise.all([events.deleteMany({ orgId }), tokens.deleteMany({ orgId }), checks.deleteMany({ orgId }),
        observations.deleteMany({ orgId }), rules.deleteMany({ orgId })]);
    },
  };
}
export type CloudEventStore = ReturnType<typeof createCloudEventStore>;
