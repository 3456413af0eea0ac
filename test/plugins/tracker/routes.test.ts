// The tracker (issue 15 point 5) against a loopback server answering as Atlassian's OAuth 2.0
// (3LO) endpoints and Jira Cloud's REST v3 are documented to.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { fakeAtlassian } from './fake-atlassian.ts';

t.test('OAuth flow, config, projects, issue types, priorities, tickets from widgets, refresh, disconnect', async (t) => {
  const fake = await fakeAtlassian(t);
  const b = await buildTestApp(t, { env: fake.env });
  const owner = await register(b.app);
  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, token = owner.token) =>
    b.app.inject({ method, url: `/api/tracker${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  t.same((await api('GET', '/config')).json().data, { connected: false, siteUrl: null, defaultProject: null, defaultIssueType: null });
  t.equal((await api('GET', '/projects')).statusCode, 409, 'not connected: 409');

  const initiated = await api('GET', '/oauth/initiate');
  const init = initiated.json().data;
  // The browser that initiates gets the binding cookie; the callback comes back with it.
  const cookie = String(initiated.headers['set-cookie']).split(';')[0];
  const url = new URL(init.authorizationUrl);
  t.equal(url.origin + url.pathname, `${fake.env.TRACKER_AUTH_URL}/authorize`);
  t.match(Object.fromEntries(url.searchParams), { audience: 'api.atlassian.com', client_id: 'jira-client', response_type: 'code', prompt: 'consent', scope: /offline_access/, redirect_uri: /\/api\/tracker\/oauth\/callback$/, state: /.{20,}/ });
  const stateParam = url.searchParams.get('state')!;

  const bad = await b.app.inject({ method: 'GET', url: `/api/tracker/oauth/callback?state=forged&code=${fake.state.code}` });
  t.equal(bad.statusCode, 400, 'an unknown state: 400');
  const cb = await b.app.inject({ method: 'GET', url: `/api/tracker/oauth/callback?state=${stateParam}&code=${fake.state.code}`, headers: { cookie } });
  t.equal(cb.statusCode, 200, cb.body);
  t.match(cb.json().data, { connected: true, siteUrl: 'https://acme.atlassian.net' });
  t.equal((await b.app.inject({ method: 'GET', url: `/api/tracker/oauth/callback?state=${stateParam}&code=${fake.state.code}`, headers: { cookie } })).statusCode, 400, 'the state is single use');
  const stored = JSON.stringify(await b.ctx.db.db.collection('tracker_connections').findOne({ _id: owner.orgId as never }));
  t.notOk(stored.includes(fake.state.access) || stored.includes(fake.state.refresh), 'tokens stored encrypted');

  t.match((await api('POST', '/test-connection')).json().data, { success: true, user: 'Mia Krystof', siteUrl: 'https://acme.atlassian.net' });
  t.same((await api('GET', '/projects')).json().data, [{ id: '10000', key: 'OPS', name: 'Operations' }]);
  t.same((await api('GET', '/projects/OPS/issue-types')).json().data, [{ id: '10001', name: 'Task', subtask: false }, { id: '10002', name: 'Sub-task', subtask: true }]);
  t.equal((await api('GET', '/projects/NOPE/issue-types')).statusCode, 404, 'unknown project: 404');
  t.same((await api('GET', '/priorities')).json().data, [{ id: '1', name: 'Highest' }, { id: '3', name: 'Medium' }]);

  const widget = (await b.app.inject({ method: 'POST', url: '/api/drift-widgets', headers: bearer(owner.token), payload: { title: 'Critical S3', type: 'count', filters: { severity: ['critical'], resourceType: 'aws_s3_bucket' } } })).json().data;
  t.equal((await api('POST', `/widgets/${widget._id}/create-ticket`)).statusCode, 400, 'no defaults yet: 400');
  t.same((await api('POST', '/config', { defaultProject: 'OPS', defaultIssueType: 'Task' })).json().data, { connected: true, siteUrl: 'https://acme.atlassian.net', defaultProject: 'OPS', defaultIssueType: 'Task' });
  t.same((await api('GET', `/widgets/${widget._id}/verify-ticket`)).json().data, { exists: false, key: null, url: null, status: null }, 'no ticket yet');

  const [one, two] = await Promise.all([api('POST', `/widgets/${widget._id}/create-ticket`), api('POST', `/widgets/${widget._id}/create-ticket`)]);
  const answers = [one, two].map((r) => r.json().data).filter(Boolean);
  t.ok(answers.some((a) => a.created === true), 'one call creates');
  t.equal(fake.state.issues.size, 1, 'one issue even with two calls racing');
  const again = (await api('POST', `/widgets/${widget._id}/create-ticket`)).json().data;
  t.same(again, { key: 'OPS-1', url: 'https://acme.atlassian.net/browse/OPS-1', created: false }, 'a second call answers the existing ticket');
  const issue = fake.state.issues.get('OPS-1')!;
  t.match(issue.body.fields, { project: { key: 'OPS' }, issuetype: { name: 'Task' }, summary: /Critical S3 \(0 drifts\)/, description: { type: 'doc', version: 1 } });
  t.match(JSON.stringify(issue.body.fields.description), /severity: critical; resourceType: aws_s3_bucket/, "the description names the widget's filters");
  t.same((await api('GET', `/widgets/${widget._id}/verify-ticket`)).json().data, { exists: true, key: 'OPS-1', url: 'https://acme.atlassian.net/browse/OPS-1', status: 'To Do' });
  issue.status = 'Done';
  t.equal((await api('GET', `/widgets/${widget._id}/verify-ticket`)).json().data.status, 'Done');
  fake.state.issues.delete('OPS-1');
  t.match((await api('GET', `/widgets/${widget._id}/verify-ticket`)).json().data, { exists: false, key: 'OPS-1' }, 'a deleted issue');

  // The access token expires: the next call refreshes it with the (rotating) refresh token.
  await b.ctx.db.db.collection('tracker_connections').updateOne({ _id: owner.orgId as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  const before = fake.state.refresh;
  t.equal((await api('GET', '/priorities')).statusCode, 200, 'still works after expiry');
  t.ok(fake.state.calls.some((c) => c.path === '/oauth/token' && c.body.grant_type === 'refresh_token' && c.body.refresh_token === before), 'refreshed with the stored refresh token');

  const other = await register(b.app);
  t.equal((await api('POST', `/widgets/${widget._id}/create-ticket`, undefined, other.token)).statusCode, 404, "another organization's widget: 404");

  t.equal((await api('DELETE', '/disconnect')).statusCode, 200);
  t.match((await api('GET', '/config')).json().data, { connected: false, siteUrl: null, defaultProject: 'OPS' });
  const after = await b.ctx.db.db.collection('tracker_connections').findOne({ _id: owner.orgId as never });
  t.equal(after!.accessToken, null, 'tokens deleted');
  t.equal(after!.refreshToken, null);
});

t.test('without a client id: 503 except GET config and disconnect', async (t) => {
  const b = await buildTestApp(t, { env: { TRACKER_CLIENT_ID: undefined } });
  const owner = await register(b.app);
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => b.app.inject({ method, url: `/api/tracker${url}`, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
  for (const [method, url, payload] of [['GET', '/oauth/initiate'], ['POST', '/config', { defaultProject: 'OPS' }], ['POST', '/test-connection'], ['GET', '/projects'], ['GET', '/projects/OPS/issue-types'], ['GET', '/priorities'], ['POST', '/widgets/aaaaaaaaaaaaaaaaaaaaaaaa/create-ticket'], ['GET', '/widgets/aaaaaaaaaaaaaaaaaaaaaaaa/verify-ticket']] as const) {
    const res = await call(method, url, payload as object | undefined);
    t.equal(res.statusCode, 503, `${method} ${url}: 503`);
    t.equal(res.json().error.message, 'Tracker integration is not configured');
  }
  t.equal((await b.app.inject({ method: 'GET', url: '/api/tracker/oauth/callback?state=x&code=y' })).statusCode, 503, 'callback: 503');
  t.same((await call('GET', '/config')).json().data, { connected: false, siteUrl: null, defaultProject: null, defaultIssueType: null });
  t.equal((await call('DELETE', '/disconnect')).statusCode, 200);
});
