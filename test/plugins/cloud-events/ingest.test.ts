// Issue #24 point 1: `ce_` tokens (shown once, stored hashed, revoked at once in every process,
// bound to their organization), ingestion of CloudTrail records as AWS documents them (bare and
// as EventBridge delivers them), read-only calls counted and dropped, duplicates changing
// nothing, a rejected batch storing nothing, and the event list with its filters.
import t from 'tap';
import { buildApp } from '../../../core/app.ts';
import { sha256Hex } from '../../../core/crypto.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { ALICE, DEPLOYER, bridge, trail } from './records.ts';

t.test('tokens, ingestion and the event list', async (t) => {
  const a = await buildTestApp(t);
  const { app, ctx } = a;
  const owner = await register(app);
  const other = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'pro');
  await ctx.tenancy.setPlan(other.orgId, 'pro');
  const as = (s: { token: string }) => bearer(s.token);

  const created = await app.inject({ method: 'POST', url: '/api/cloud-events/tokens', headers: as(owner), payload: { name: 'eventbridge' } });
  t.equal(created.statusCode, 201, 'token created');
  const { token, id, prefix } = created.json().data;
  t.match(token, /^ce_[A-Za-z0-9_-]{40,}$/, 'a ce_ token, shown once');
  t.equal(prefix, token.slice(0, 10), 'its prefix');
  const listed = (await app.inject({ method: 'GET', url: '/api/cloud-events/tokens', headers: as(owner) })).json();
  t.same(listed.data.map((x: { id: string }) => x.id), [id], 'listed');
  t.notOk('token' in listed.data[0], 'the list never shows the token');
  t.match(listed.data[0], { name: 'eventbridge', prefix, lastUsedAt: null });
  const stored = await ctx.db.db.collection('cloud_event_tokens').findOne({ _id: id as never });
  t.equal(stored?.hash, sha256Hex(token), 'stored as its SHA-256 hash');
  t.notOk(JSON.stringify(stored).includes(token), 'never in clear');

  const ingest = (payload: unknown, tok = token, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/cloud-events', headers: { ...bearer(tok), 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const events = async (query = '', s = owner) => (await app.inject({ method: 'GET', url: `/api/cloud-events${query}`, headers: as(s) })).json();

  // Every documented call the issue names, bare and through EventBridge.
  const sg = 'sg-0a1b2c3d4e5f60718';
  const instance = 'i-0123456789abcdef0';
  const batch = [
    trail.authorizeIngress(sg, 8080, '0.0.0.0/0'),
    bridge(trail.revokeIngress(sg, 22, '10.0.0.0/8', { identity: 'role' })),
    trail.putBucketVersioning('acme-logs', 'Suspended'),
    bridge(trail.putBucketPolicy('acme-logs')),
    trail.modifyInstanceAttribute(instance),
    trail.terminateInstances(instance),
    trail.putRolePolicy('app-role'),
    trail.attachRolePolicy('app-role', 'arn:aws:iam::aws:policy/ReadOnlyAccess'),
    trail.createTags(instance, 'Owner', 'alice'),
    trail.describeInstances(instance),
    { ...trail.createTags(instance, 'x', 'y'), eventName: 'DescribeTags', readOnly: false },
    { version: '0', id: 'x', 'detail-type': 'EC2 Instance State-change Notification', source: 'aws.ec2', detail: { state: 'running' } },
  ];
  const first = await ingest(batch);
  t.equal(first.statusCode, 200, first.body);
  t.same(first.json(), { accepted: 9, duplicates: 0, readOnly: 2, ignored: 1 }, 'nine write calls stored, read-only ones counted and dropped, another detail-type ignored');

  const ids = async (eventName: string) => (await events(`?eventName=${eventName}`)).data.map((e: { resourceIds: string[] }) => e.resourceIds);
  t.same(await ids('AuthorizeSecurityGroupIngress'), [[sg]], 'ingress: the group id');
  t.same(await ids('RevokeSecurityGroupIngress'), [[sg]], 'through EventBridge too');
  t.same(await ids('PutBucketVersioning'), [['acme-logs']], 'versioning: the bucket name');
  t.same(await ids('PutBucketPolicy'), [['acme-logs']], 'policy: the bucket name');
  t.same(await ids('ModifyInstanceAttribute'), [[instance]], 'instance attribute: the instance id');
  t.same(await ids('TerminateInstances'), [[instance]], 'terminate: the instances of instancesSet');
  t.same(await ids('PutRolePolicy'), [['app-role']], 'inline role policy: the role name');
  t.same(await ids('AttachRolePolicy'), [['app-role', 'arn:aws:iam::aws:policy/ReadOnlyAccess']], 'attached policy: the role and the policy ARN');
  t.same(await ids('CreateTags'), [[instance]], 'tags: every resource of resourcesSet');
  const revoke = (await events('?eventName=RevokeSecurityGroupIngress')).data[0];
  t.match(revoke.userIdentity, { type: 'AssumedRole', arn: DEPLOYER, issuer: 'arn:aws:iam::123456789012:role/deployer' }, 'the identity with its session issuer');
  t.match(revoke, { eventSource: 'ec2.amazonaws.com', awsRegion: 'us-east-1', recipientAccountId: '123456789012', sourceIPAddress: '192.0.2.1', errorCode: null });

  // Filters and pages, each served by an index (the index check after tap).
  t.equal((await events(`?resourceId=${instance}`)).pagination.total, 3, 'resourceId: the three calls on the instance');
  t.equal((await events('?actor=assumed-role/deployer')).pagination.total, 1, 'actor: a substring of the identity ARN');
  t.equal((await events(`?actor=user/alice&resourceId=${instance}`)).pagination.total, 3, 'case-insensitive, with another filter');
  const page = await events('?limit=4&page=2');
  t.match(page, { success: true, pagination: { total: 9, page: 2, limit: 4, pages: 3 } }, 'the one paged-list shape (docs/api-conventions.md)');
  t.equal(page.data.length, 4);
  t.equal((await events(`?from=${new Date(Date.now() + 3_600_000).toISOString()}`)).pagination.total, 0, 'from: none later');
  t.equal((await events(`?to=${new Date(Date.now() + 3_600_000).toISOString()}&eventName=CreateTags`)).pagination.total, 1, 'to and eventName');

  // The same eventID again changes nothing.
  const again = await ingest([batch[0], bridge(batch[2] as Record<string, unknown>)]);
  t.same(again.json(), { accepted: 0, duplicates: 2, readOnly: 0, ignored: 0 }, 'duplicates, bare or wrapped: nothing stored');
  t.equal((await events()).pagination.total, 9, 'still nine events');

  // Refused batches store nothing.
  const before = (await events()).pagination.total;
  const bad = await ingest([trail.createTags(instance, 'a', 'b'), trail.createTags(instance, 'c', 'd'), { ...trail.createTags(instance, 'e', 'f'), eventTime: undefined }]);
  t.equal(bad.statusCode, 400);
  t.match(bad.json().error.message, /record 2 has no eventTime/, 'the problem named, with the record');
  t.equal((await ingest([{ eventID: 'x', eventName: 'CreateTags', eventTime: 'yesterday' }])).json().error.message, 'record 0: eventTime "yesterday" is not an ISO 8601 time');
  t.equal((await ingest('{"eventID": ')).statusCode, 400, 'not JSON: 400');
  t.match((await ingest('42')).json().error.message, /must be a CloudTrail record/, 'not an object or array: 400');
  t.match((await ingest([1])).json().error.message, /record 0 is not a JSON object/);
  t.match((await ingest(bridge('x' as never))).json().error?.message ?? '', /detail/, 'EventBridge without a record under detail: 400');
  let deep: Record<string, unknown> = {};
  const deepRecord = { ...trail.createTags(instance, 'g', 'h'), requestParameters: deep };
  for (let i = 0; i < 70; i++) { const next = {}; deep.n = next; deep = next; }
  const tooDeep = await ingest(deepRecord);
  t.equal(tooDeep.statusCode, 400, 'nested deeper than the engine bound (64): 400');
  t.match(tooDeep.json().error.message, /nested more than 64 levels/);
  const many = await ingest(Array.from({ length: 101 }, () => trail.createTags(instance, 'k', 'v')));
  t.equal(many.statusCode, 413, '101 records: 413');
  t.match(many.json().error, { code: 'payload_too_large', details: { max: 100, received: 101 } });
  t.equal((await events()).pagination.total, before, 'nothing of any refused batch stored');
  t.equal((await ingest(Array.from({ length: 100 }, () => trail.createTags(instance, 'k', 'v')))).json().accepted, 100, '100 records: accepted');

  // That token only, and only there.
  t.equal((await ingest(trail.createTags(instance, 'k', 'v'), owner.token)).statusCode, 401, 'a JWT on the ingestion route: 401');
  const cli = (await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: as(owner), payload: { name: 'ci', scopes: ['drifts:read'], allRepositories: true, repositories: [] } })).json();
  const cliToken = cli.token as string;
  t.match(cliToken, /^ci_/);
  t.equal((await ingest(trail.createTags(instance, 'k', 'v'), cliToken)).statusCode, 401, 'a CLI token on the ingestion route: 401');
  for (const url of ['/api/drifts', '/api/cloud-events', '/api/auth/me', '/api/cloud-events/tokens']) {
    const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
    t.equal(res.statusCode, 401, `a ce_ token on GET ${url}: 401`);
  }

  // Organization-scoped: another organization's token writes into that organization only.
  const otherToken = (await app.inject({ method: 'POST', url: '/api/cloud-events/tokens', headers: as(other), payload: { name: 'theirs' } })).json().data.token;
  const theirs = trail.createTags(instance, 'from', 'other');
  t.equal((await ingest(theirs, otherToken, { 'x-org-id': owner.orgId })).statusCode, 404, "another organization's token naming this one: 404");
  t.equal((await ingest(theirs, otherToken)).json().accepted, 1, 'into its own organization');
  t.equal((await events(`?eventName=CreateTags&actor=${encodeURIComponent(ALICE)}`)).pagination.total, 101, 'not into this one');
  t.equal((await events('', other)).pagination.total, 1, 'the other organization sees its one event');
  t.equal((await app.inject({ method: 'DELETE', url: `/api/cloud-events/tokens/${id}`, headers: as(other) })).statusCode, 404, "another organization's token id: 404");

  // lastUsedAt written (at most once a minute), then revoked at once in every process.
  const twin = await buildApp({ config: ctx.config, logger: false });
  t.teardown(() => twin.app.close());
  const viaTwin = () => twin.app.inject({ method: 'POST', url: '/api/cloud-events', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: JSON.stringify(trail.createTags(instance, 'k', 'v')) });
  t.equal((await viaTwin()).statusCode, 200, 'a second process accepts the token (and caches it)');
  await new Promise((r) => setTimeout(r, 200));
  t.not((await app.inject({ method: 'GET', url: '/api/cloud-events/tokens', headers: as(owner) })).json().data[0].lastUsedAt, null, 'lastUsedAt written');
  t.equal((await app.inject({ method: 'DELETE', url: `/api/cloud-events/tokens/${id}`, headers: as(owner) })).statusCode, 204, 'revoked');
  t.equal((await ingest(trail.createTags(instance, 'k', 'v'))).statusCode, 401, 'this process: 401 at once');
  const late = await viaTwin();
  t.equal(late.statusCode, 401, 'the other process: 401 at once');
  t.equal(late.json().error.code, 'invalid_token');

  // Retention like the audit trail's: Pro keeps 30 days.
  const service = a.services['cloud-events']!;
  const mine = () => ctx.db.db.collection('cloud_events').countDocuments({ orgId: owner.orgId });
  const kept = await mine();
  await service.purge(new Date(Date.now() + 29 * 86_400_000));
  t.equal(await mine(), kept, 'after 29 days: kept');
  await ctx.tenancy.setPlan(other.orgId, 'team');
  await service.purge(new Date(Date.now() + 31 * 86_400_000));
  t.equal(await mine(), 0, "after 31 days: the Pro organization's events purged");
  t.equal(await ctx.db.db.collection('cloud_events').countDocuments({ orgId: other.orgId }), 1, "the Team organization's kept (90 days)");
});
