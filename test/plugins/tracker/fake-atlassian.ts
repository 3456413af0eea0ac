// A loopback server answering as Atlassian's OAuth 2.0 (3LO) endpoints and Jira Cloud's
// REST v3 are documented to (shared by the tracker tests).
import type { Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';

export const CLOUD = '11223344-a1b2-3b33-c444-def123456789';

export async function fakeAtlassian(t: Test) {
  const state = { code: 'auth-code-1', access: 'at-1', refresh: 'rt-1', expiresIn: 3600, issues: new Map<string, { key: string; summary: string; status: string; body: any }>(), calls: [] as { method: string; path: string; auth?: string; body: any }[] };
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null;
      const path = req.url ?? '';
      state.calls.push({ method: req.method ?? '', path, auth: req.headers.authorization, body });
      const send = (status: number, payload: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(payload)); };
      if (path === '/oauth/token' && req.method === 'POST') {
        if (body.client_id !== 'jira-client' || body.client_secret !== 'jira-secret') return send(401, { error: 'access_denied', error_description: 'Unauthorized' });
        const ok = (body.grant_type === 'authorization_code' && body.code === state.code && body.redirect_uri.endsWith('/api/tracker/oauth/callback'))
          || (body.grant_type === 'refresh_token' && body.refresh_token === state.refresh);
        if (!ok) return send(403, { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' });
        state.access = `at-${state.calls.length}`;
        state.refresh = `rt-${state.calls.length}`; // rotating refresh tokens
        return send(200, { access_token: state.access, refresh_token: state.refresh, expires_in: state.expiresIn, scope: 'read:jira-work write:jira-work offline_access', token_type: 'Bearer' });
      }
      if (req.headers.authorization !== `Bearer ${state.access}`) return send(401, { code: 401, message: 'Unauthorized' });
      if (path === '/oauth/token/accessible-resources') {
        return send(200, [{ id: CLOUD, url: 'https://acme.atlassian.net', name: 'acme', scopes: ['read:jira-work', 'write:jira-work'], avatarUrl: 'https://x/y.png' }]);
      }
      const prefix = `/ex/jira/${CLOUD}/rest/api/3`;
      if (!path.startsWith(prefix)) return send(404, { errorMessages: ['Not found'] });
      const p = path.slice(prefix.length);
      if (p === '/myself') return send(200, { accountId: '5b10a2844c20165700ede21g', displayName: 'Mia Krystof', active: true });
      if (p.startsWith('/project/search')) return send(200, { isLast: true, maxResults: 100, startAt: 0, total: 1, values: [{ id: '10000', key: 'OPS', name: 'Operations', projectTypeKey: 'software' }] });
      if (p.startsWith('/issue/createmeta/OPS/issuetypes')) return send(200, { issueTypes: [{ id: '10001', name: 'Task', subtask: false }, { id: '10002', name: 'Sub-task', subtask: true }], maxResults: 100, startAt: 0, total: 2 });
      if (p.startsWith('/issue/createmeta/')) return send(404, { errorMessages: ['No project could be found with key.'], errors: {} });
      if (p === '/priority') return send(200, [{ id: '1', name: 'Highest', iconUrl: 'x' }, { id: '3', name: 'Medium', iconUrl: 'y' }]);
      if (p === '/issue' && req.method === 'POST') {
        if (!body.fields?.project?.key || !body.fields?.issuetype || !body.fields?.summary) return send(400, { errorMessages: [], errors: { summary: 'required' } });
        const key = `OPS-${state.issues.size + 1}`;
        state.issues.set(key, { key, summary: body.fields.summary, status: 'To Do', body });
        return send(201, { id: String(10000 + state.issues.size), key, self: `https://acme.atlassian.net/rest/api/3/issue/${key}` });
      }
      const m = /^\/issue\/([A-Z]+-\d+)/.exec(p);
      if (m && req.method === 'GET') {
        const issue = state.issues.get(m[1]);
        if (!issue) return send(404, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
        return send(200, { id: '1', key: issue.key, fields: { summary: issue.summary, status: { name: issue.status, statusCategory: { key: 'new' } } } });
      }
      send(404, { errorMessages: ['Not found'] });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { state, env: { TRACKER_CLIENT_ID: 'jira-client', TRACKER_CLIENT_SECRET: 'jira-secret', TRACKER_AUTH_URL: base, TRACKER_API_URL: base } };
}
