// Shared by the guardrail route tests: a Pro organization, members with roles, the events
// the bus carried, and the plan documents of plans/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { world } from '../../fixtures/world.ts';
import type { Session, TestAppOptions } from '../../helper.ts';
import type { DomainEvent } from '../../../core/events.ts';

export const plan = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'plans', name), 'utf8'));
export const SMALL = [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: ['t3.micro', 't3.small'] }];

export async function setup(t: Test, env: TestAppOptions['env'] = {}) {
  const base = await world(t, 'pro', { env });
  // Members joined the owner's organization: every call names it (their default is their own).
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: Session | string = base.owner) => {
    const res = await base.app.inject({ method, url, headers: { authorization: `Bearer ${typeof who === 'string' ? who : who.token}`, 'x-org-id': base.owner.orgId }, ...(payload !== undefined ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, res };
  };
  const w = { ...base, api };
  /** A member of the owner's organization with this role (link invitation). */
  async function member(role: string): Promise<Session> {
    const invite = await w.api('POST', `/api/orgs/${w.owner.orgId}/invitations/link`, { role });
    const s = await w.register();
    const accepted = await w.api('POST', '/api/orgs/invitations/accept', { token: new URL(invite.body.link).searchParams.get('token') }, s);
    if (accepted.status >= 300) throw new Error(`accept: ${JSON.stringify(accepted.body)}`);
    return s;
  }
  const events: { type: string; data: Record<string, unknown> }[] = [];
  w.ctx.bus.on('*', (e: DomainEvent) => { events.push({ type: e.type, data: e.data as Record<string, unknown> }); });
  const guardrail = async (body: Record<string, unknown>) => {
    const r = await w.api('POST', '/api/guardrails', { name: 'g', enforcement: 'block', rules: SMALL, ...body });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body._id as string;
  };
  return { ...w, member, events, guardrail };
}

