// The only file that touches the webhook collections; declares their indexes.
//  webhooks             an organization's outbound webhooks (secret sealed)
//  chat_settings        one per organization (_id = orgId): the chat incoming-webhook URL, sealed
//  webhook_deliveries   the durable outbox: one record per (event, target), written when the
//                       event happens, before anything is sent; a job sends the due ones. An
//                       ended one (delivered, failed) is re-written as `<id>:ended` and kept until the retention purge.
//  webhook_attempts     one record per attempt of a delivery, keyed `<deliveryId>:<attempt>`:
//                       the unique _id decides which process sends that attempt (DESIGN.md:
//                       only unique indexes hold under concurrency on the embedded database)
//
// The embedded FerretDB (v1, PostgreSQL backend) pushes down equality filters and a limit only
// when the whole filter is equality; a range, $in or sort reads every matching record into its
// own process. An update costs about 10 ms per record there, an insert or a deleteMany under a
// pushed-down filter well under 1 ms: so the hot path reads by equality (`status` + `attempts`),
// and ended deliveries are written as one insert of their ended records and a delete of the
// pending ones per event (`eventId`), not as updates; only a retry (rare) is an update.
import { bulkWriteInChunks, type CollectionSpec, type Database, type Changes } from '../../core/db.ts';
import type { Collection, MongoBulkWriteError, OptionalUnlessRequiredId } from 'mongodb';

export interface Webhook {
  _id: string;
  orgId: string;
  url: string;
  events: string[];
  active: boolean;
  /** Sealed secret, or null without one. */
  secret: string | null;
  secretMask: string | null;
  lastDelivery: { status: DeliveryStatus; timestamp: Date } | null;
  /** When it was last made active: consecutive failures count from here. */
  activatedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface ChatSettings {
  _id: string; // orgId
  orgId: string;
  enabled: boolean;
  /** Sealed incoming-webhook URL. */
  webhookUrl: string;
  urlMask: string;
  channel: string | null;
  events: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export type TargetKind = 'webhook' | 'chat';

export interface Delivery {
  _id: string;
  orgId: string;
  target: TargetKind;
  /** The webhook's id, or the organization's id for chat. */
  targetId: string;
  eventId: string;
  event: string;
  /** The exact JSON sent on every attempt (same envelope id and timestamp on retries). */
  body: string;
  status: DeliveryStatus;
  /** Attempts made so far (the first send is attempt 0, retries 1..4). */
  attempts: number;
  nextAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  /** At most 1 KB of the receiver's last answer. */
  lastResponse: string | null;
  lastResponseTime: number | null;
  createdAt: Date;
  /** Set when the delivery ends (delivered or failed); the consecutive-failure count reads it. */
  completedAt: Date | null;
  /** The UTC day it ended (YYYY-MM-DD): the retention purge deletes by this equality. */
  completedDay?: string;
  /** On an ended record (`_id` `<deliveryId>:ended`): the delivery's id, the one its attempts carried. */
  deliveryId?: string;
}

export interface Attempt { _id: string; orgId: string; deliveryId: string; attempt: number; claimedAt: Date; claimedDay: string }

/** The UTC day of a time, the purge's bucket. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export const WEBHOOKS: CollectionSpec = {
  name: 'webhooks', owner: 'plugins/webhooks',
  indexes: [{ key: { orgId: 1, createdAt: 1 } }, { key: { orgId: 1, active: 1, events: 1 } }],
};
export const CHAT_SETTINGS: CollectionSpec = { name: 'chat_settings', owner: 'plugins/webhooks', indexes: [] };
export const WEBHOOK_DELIVERIES: CollectionSpec = {
  name: 'webhook_deliveries', owner: 'plugins/webhooks',
  indexes: [
    { key: { status: 1, attempts: 1 } },
    { key: { eventId: 1 } },
    { key: { completedDay: 1 } },
    { key: { orgId: 1, targetId: 1, createdAt: -1 } },
  ],
};
export const WEBHOOK_ATTEMPTS: CollectionSpec = {
  name: 'webhook_attempts', owner: 'plugins/webhooks',
  indexes: [{ key: { orgId: 1 } }, { key: { deliveryId: 1 } }, { key: { claimedDay: 1 } }],
};

/** Inserts in one unordered command; answers the indexes of the documents already there (duplicate _id). */
async function insertIgnoringDuplicates<T extends { _id: string }>(col: Collection<T>, docs: OptionalUnlessRequiredId<T>[]): Promise<Set<number>> {
  const lost = new Set<number>();
  try {
    await col.insertMany(docs, { ordered: false });
  } catch (err) {
    const writeErrors = (err as MongoBulkWriteError).writeErrors;
    if (!writeErrors) throw err;
    for (const e of Array.isArray(writeErrors) ? writeErrors : [writeErrors]) {
      if (e.code !== 11000) throw err;
      lost.add(e.index);
    }
  }
  return lost;
}

export function createWebhookStore(db: Database) {
  const hooks = db.collection<Webhook>(WEBHOOKS);
  const chats = db.collection<ChatSettings>(CHAT_SETTINGS);
  const deliveries = db.collection<Delivery>(WEBHOOK_DELIVERIES);
  const attempts = db.collection<Attempt>(WEBHOOK_ATTEMPTS);
  return {
    list: (orgId: string) => hooks.find({ orgId }).sort({ createdAt: 1 }).limit(100).toArray(),
    /** Every webhook of an organization (at most MAX_WEBHOOKS), one equality read per batch. */
    all: (orgId: string) => hooks.find({ orgId }).limit(100).toArray(),
    count: (orgId: string) => hooks.countDocuments({ orgId }),
    get: (orgId: string, id: string) => hooks.findOne({ _id: id, orgId }),
    insert: async (w: Webhook) => { await hooks.insertOne(w); },
    update: async (orgId: string, id: string, set: Changes<Webhook>) => (await hooks.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0,
    remove: async (orgId: string, id: string) => (await hooks.deleteOne({ _id: id, orgId })).deletedCount > 0,
    /** Active webhooks of an organization subscribed to an event. */
    subscribed: (orgId: string, event: string) => hooks.find({ orgId, active: true, events: event }).limit(100).toArray(),

    chat: (orgId: string) => chats.findOne({ _id: orgId }),
    async putChat(orgId: string, set: Pick<ChatSettings, 'enabled' | 'webhookUrl' | 'urlMask' | 'channel' | 'events'>): Promise<ChatSettings> {
      const now = new Date();
      await chats.updateOne({ _id: orgId }, { $set: { ...set, orgId, updatedAt: now }, $setOnInsert: { createdAt: now } }, { upsert: true });
      return (await chats.findOne({ _id: orgId }))!;
    },
    removeChat: async (orgId: string) => (await chats.deleteOne({ _id: orgId })).deletedCount > 0,

    /** The outbox write: every delivery of one event in one command. */
    enqueue: async (rows: Delivery[]) => { if (rows.length) await deliveries.insertMany(rows, { ordered: false }); },
    /** First attempts waiting (due when written): equality only, so the limit is pushed down. */
    firsts: (limit: number) => deliveries.find({ status: 'pending', attempts: 0 }).limit(limit).toArray(),
    /** Retries due at `now` (the retry backlog is read per attempt number: equality filters), oldest first. */
    async retries(now: Date, maxAttempt: number, limit: number): Promise<Delivery[]> {
      const out: Delivery[] = [];
      for (let a = 1; a <= maxAttempt; a++) out.push(...(await deliveries.find({ status: 'pending', attempts: a }).toArray()).filter((d) => d.nextAt <= now));
      return out.sort((x, y) => x.nextAt.getTime() - y.nextAt.getTime()).slice(0, limit);
    },
    delivery: (orgId: string, id: string) => deliveries.findOne({ _id: id, orgId }),
    /** The outbox backlog across organizations (the metrics gauge): pending deliveries, due now or later. */
    pendingCount: () => deliveries.countDocuments({ status: 'pending' }),
    /** Records retries (the delivery stays pending): one command per BULK_STATEMENTS deliveries. */
    async recordRetries(rows: { id: string; attempt: number; set: Partial<Delivery> }[]): Promise<void> {
      await bulkWriteInChunks(deliveries, rows.map((r) => ({ updateOne: { filter: { _id: r.id, attempts: r.attempt }, update: { $set: r.set } } })));
    },
    /**
     * Records ended deliveries: one insert of their ended records (`<id>:ended`; a duplicate, from
     * an attempt re-sent after a process died between the two commands, is ignored), then per
     * (event, attempt) one delete of the pending records (equality on eventId, pushed down). A
     * group whose pending records were not all there any more (its webhook or organization
     * deleted meanwhile) has its ended records deleted again.
     */
    async recordEnded(rows: Delivery[]): Promise<void> {
      if (!rows.length) return;
      await insertIgnoringDuplicates(deliveries, rows.map((d) => ({ ...d, _id: `${d._id}:ended`, deliveryId: d._id })));
      const groups = new Map<string, Delivery[]>();
      for (const d of rows) {
        const k = `${d.eventId}:${d.attempts - 1}`;
        groups.set(k, [...(groups.get(k) ?? []), d]);
      }
      // The groups' deletes are independent: sent together (the driver's pool runs them side by side).
      await Promise.all([...groups.values()].map(async (g) => {
        const ids = g.map((d) => d._id);
        const { deletedCount } = await deliveries.deleteMany({ eventId: g[0].eventId, status: 'pending', attempts: g[0].attempts - 1, _id: { $in: ids } });
        if (deletedCount !== g.length) await deliveries.deleteMany({ eventId: g[0].eventId, _id: { $in: ids.map((id) => `${id}:ended`) } });
      }));
    },
    /** Deletes ended deliveries and attempt keys of the given UTC days (the retention purge). */
    async purgeDays(days: string[]): Promise<{ deliveries: number; attempts: number }> {
      let d = 0;
      let a = 0;
      for (const day of days) {
        d += (await deliveries.deleteMany({ completedDay: day })).deletedCount;
        a += (await attempts.deleteMany({ claimedDay: day })).deletedCount;
      }
      return { deliveries: d, attempts: a };
    },
    /**
     * Records written before the day fields (no `completedDay` / `claimedDay`): deletes those
     * that ended or were claimed before `cutoff`, and answers whether any undated ended delivery
     * or attempt key is left (a younger one, deleted by a later purge). Not an equality filter:
     * the embedded database reads the candidates into its own process, so the retention runs this
     * only until a pass finds none left (retention.ts).
     */
    async purgeUndated(cutoff: Date): Promise<{ deliveries: number; attempts: number; left: boolean }> {
      const d = (await deliveries.deleteMany({ completedDay: { $exists: false }, completedAt: { $lt: cutoff } })).deletedCount;
      const a = (await attempts.deleteMany({ claimedDay: { $exists: false }, claimedAt: { $lt: cutoff } })).deletedCount;
      const left = !!(await deliveries.findOne({ completedDay: { $exists: false }, completedAt: { $ne: null } }, { projection: { _id: 1 } }))
        || !!(await attempts.findOne({ claimedDay: { $exists: false } }, { projection: { _id: 1 } }));
      return { deliveries: d, attempts: a, left };
    },
    /**
     * The last `n` deliveries of a target created after `since` that ended, newest first
     * (consecutive failures; a few pending ones among the newest are passed over).
     */
    lastCompleted: async (orgId: string, targetId: string, since: Date, n: number) =>
      (await deliveries.find({ orgId, targetId, createdAt: { $gte: since } }, { projection: { status: 1, completedAt: 1 } }).sort({ createdAt: -1 }).limit(n * 3).toArray())
        .filter((d) => d.completedAt).slice(0, n),
    setLastDelivery: async (orgId: string, id: string, last: { status: DeliveryStatus; timestamp: Date }) => {
      await hooks.updateOne({ _id: id, orgId }, { $set: { lastDelivery: last } });
    },
    recent: (orgId: string, targetId: string, limit: number) => deliveries.find({ orgId, targetId }).sort({ createdAt: -1 }).limit(limit).toArray(),

    /**
     * Claims attempts: one insert per `<deliveryId>:<attempt>` in one unordered command; the
     * duplicates are attempts another process claimed. Answers the ids won.
     */
    async claim(rows: { orgId: string; deliveryId: string; attempt: number }[], now: Date): Promise<Set<string>> {
      if (!rows.length) return new Set();
      const docs: Attempt[] = rows.map((r) => ({ _id: `${r.deliveryId}:${r.attempt}`, orgId: r.orgId, deliveryId: r.deliveryId, attempt: r.attempt, claimedAt: now, claimedDay: dayOf(now) }));
      const lost = await insertIgnoringDuplicates(attempts, docs);
      return new Set(docs.filter((_, i) => !lost.has(i)).map((d) => d.deliveryId));
    },
    attempt: (deliveryId: string, attempt: number) => attempts.findOne({ _id: `${deliveryId}:${attempt}` }),
    /** An attempt whose process died after claiming it: the unique key decides who gives it up. */
    async claimAbandoned(orgId: string, deliveryId: string, attempt: number, now: Date): Promise<boolean> {
      try {
        await attempts.insertOne({ _id: `${deliveryId}:${attempt}:abandoned`, orgId, deliveryId, attempt, claimedAt: now, claimedDay: dayOf(now) });
        return true;
      } catch (err) {
        if ((err as { code?: number }).code === 11000) return false;
        throw err;
      }
    },

    async removeWebhookData(orgId: string, id: string): Promise<void> {
      await deliveries.deleteMany({ orgId, targetId: id });
    },
    async removeOrg(orgId: string): Promise<void> {
      await hooks.deleteMany({ orgId });
      await chats.deleteOne({ _id: orgId });
      await deliveries.deleteMany({ orgId });
      await attempts.deleteMany({ orgId });
    },
  };
}
export type WebhookStore = ReturnType<typeof createWebhookStore>;
