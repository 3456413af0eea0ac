// The only file that touches the billing collections; declares their indexes.
//  billing_accounts       one document per organization (_id = orgId): its customer, its
//                         subscription's state, a plan change pending at period end, and
//                         `appliedEvents`: one entry per provider event applied, pushed in the
//                         same update that writes the event's effect (so a second application
//                         of an event is visible as a second entry; tests and the bench count them).
//  billing_customers      customer id -> organization (_id = customer id, so unique), how an
//                         event without metadata finds its organization.
//  billing_subscriptions  per subscription, the `created` time of the newest event applied:
//                         an older event never overwrites newer state. Written only while the
//                         organization's lock is held (service.ts), because on the embedded
//                         database an update is not atomic with its filter (DESIGN.md).
import { insertUnlessDuplicate, type CollectionSpec, type Database } from '../../core/db.ts';
import type { Plan } from '../../core/plans.ts';

export interface BillingAccount {
  _id: string;
  orgId: string;
  customerId?: string;
  subscriptionId?: string | null;
  status?: string | null;
  pendingPlan?: Plan | null;
  pendingAt?: Date | null;
  cancelAtPeriodEnd?: boolean;
  currentPeriodEnd?: Date | null;
  /** Every provider event applied to this organization, oldest first (a few a month per subscription). */
  appliedEvents?: AppliedEvent[];
  updatedAt: Date;
}
/** An applied event: its id (`verify:<session>` for a browser-verified checkout), type, `created` and when it was applied. */
export interface AppliedEvent { id: string; type: string; created: number; at: Date }
interface CustomerLink { _id: string; orgId: string }
interface SubscriptionMark { _id: string; orgId: string; lastCreated: number; lastEventId: string }

export const BILLING_ACCOUNTS: CollectionSpec = { name: 'billing_accounts', owner: 'plugins/billing', indexes: [{ key: { pendingAt: 1 } }] };
export const BILLING_CUSTOMERS: CollectionSpec = { name: 'billing_customers', owner: 'plugins/billing', indexes: [{ key: { orgId: 1 } }] };
export const BILLING_SUBSCRIPTIONS: CollectionSpec = { name: 'billing_subscriptions', owner: 'plugins/billing', indexes: [{ key: { orgId: 1 } }] };

export type AccountChange = Partial<Pick<BillingAccount, 'subscriptionId' | 'status' | 'pendingPlan' | 'pendingAt' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>>;

export function createBillingStore(db: Database) {
  const accounts = db.collection<BillingAccount>(BILLING_ACCOUNTS);
  const customers = db.collection<CustomerLink>(BILLING_CUSTOMERS);
  const marks = db.collection<SubscriptionMark>(BILLING_SUBSCRIPTIONS);
  return {
    account: (orgId: string) => accounts.findOne({ _id: orgId }),
    orgOfCustomer: async (customerId: string) => (await customers.findOne({ _id: customerId }))?.orgId ?? null,
    /** Records the organization's customer; the first one stays (later ones are the same customer, by idempotency key). */
    async linkCustomer(orgId: string, customerId: string): Promise<void> {
      await insertUnlessDuplicate(customers, { _id: customerId, orgId });
      await insertUnlessDuplicate(accounts, { _id: orgId, orgId, updatedAt: new Date() });
      await accounts.updateOne({ _id: orgId, customerId: { $exists: false } }, { $set: { customerId, updatedAt: new Date() } });
    },
    /**
     * Writes a change of the account; with `applied`, the event whose effect it is is pushed onto
     * appliedEvents in the same update, so the record and the effect land together or not at all.
     * $push, not $addToSet: applying an event twice must leave two entries to see.
     */
    async update(orgId: string, set: AccountChange, applied?: Omit<AppliedEvent, 'at'>): Promise<void> {
      const now = new Date();
      await accounts.updateOne({ _id: orgId }, {
        $set: { ...set, orgId, updatedAt: now },
        ...(applied ? { $push: { appliedEvents: { ...applied, at: now } } } : {}),
      }, { upsert: true });
    },
    /** Organizations whose pending change is due at `now`. */
    async dueBefore(now: Date): Promise<string[]> {
      const rows = await accounts.find({ pendingAt: { $lte: now } }, { projection: { _id: 1 } }).limit(1000).toArray();
      return rows.map((r) => r._id);
    },
    /** The `created` of the newest event applied to a subscription, or null. */
    lastCreated: async (subscriptionId: string) => (await marks.findOne({ _id: subscriptionId }))?.lastCreated ?? null,
    async markApplied(orgId: string, subscriptionId: string, created: number, eventId: string): Promise<void> {
      await marks.updateOne({ _id: subscriptionId }, { $set: { orgId, lastCreated: created, lastEventId: eventId } }, { upsert: true });
    },
    async removeOrg(orgId: string): Promise<void> {
      await marks.deleteMany({ orgId });
      await customers.deleteMany({ orgId });
      await accounts.deleteOne({ _id: orgId });
    },
  };
}
export type BillingStore = ReturnType<typeof createBillingStore>;
