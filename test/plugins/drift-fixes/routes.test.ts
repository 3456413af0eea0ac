// The drift AI routes (issue 22 points 5-8) against loopback servers answering as GitHub's REST
// API and as OpenAI's chat-completions and Anthropic's messages APIs are documented to:
// analysis (rules, both providers, every failure kept out of the record), computed fixes
// checked with `git apply --check` at the scanned commit, approval bound to the diff, and the
// pull request (branch, contents, pulls) opened once.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { fakeHost } from '../scm/fake-host.ts';
import { installApp } from '../scm/flows.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const FRONT = 'http://front.test';

/** OpenAI- and Anthropic-style APIs: `mode` decides the answer; every request is kept. */
async function fakeAi(t: Test) {
  const state = { mode: 'ok' as 'ok' | 'bad-schema' | 'refuse-key' | 'down', requests: [] as { path: string; headers: IncomingMessage['headers']; body: any }[] };
  const analysis = { summary: 'The instance type was changed by hand.', riskLevel: 'medium', recommendation: 'Accept it into the code if intended.' };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      state.requests.push({ path: req.url ?? '', headers: req.headers, body });
      // The connection drops mid-answer (a crashed upstream): headers, then nothing.
      if (state.mode === 'down') { req.socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id'); return; }
      const send = (status: number, payload: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(payload)); };
      if (state.mode === 'refuse-key') return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      const answer = state.mode === 'bad-schema' ? { summary: 'x', riskLevel: 'catastrophic' } : analysis;
      if (req.url === '/v1/chat/completions') {
        if (req.headers.authorization !== 'Bearer sk-test-a-0123456789abcdef') return send(401, { error: { message: 'Incorrect API key provided' } });
        const content = body.response_format ? JSON.stringify(answer) : 'This fix writes the live instance type into the code.';
        return send(200, { id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }] });
      }
      if (req.url === '/v1/messages') {
        if (req.headers['x-api-key'] !== 'sk-ant-test-0123456789' || !req.headers['anthropic-version']) return send(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
        const content = body.tools
          ? [{ type: 'tool_use', id: 'toolu_1', name: body.tool_choice.name, input: { ...answer, summary: 'From provider b.' } }]
          : [{ type: 'text', text: 'Provider b explains the fix.' }];
        return send(200, { id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content, stop_reason: body.tools ? 'tool_use' : 'end_turn' });
      }
      send(404, { error: { message: 'not found' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { state, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

t.test('reanalyze, generate-fix, approve-fix, create-pr', async (t) => {
  const host = await fakeHost(t);
  const ai = await fakeAi(t);
  const { app, ctx, services } = await buildTestApp(t, { env: { ...host.env, FRONTEND_URL: FRONT, AI_PROVIDER_A_URL: ai.base, AI_PROVIDER_B_URL: ai.base } });
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const h = bearer(owner.token);
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = h) => {
    const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };

  // The repository at the scanned commit: the fixture files, in git here and on the fake host.
  const dir = mkdtempSync(path.join(tmpdir(), 'fixrepo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(here, 'fixtures'), path.join(dir, 'infra'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
  git('init', '-q'); git('add', '.'); git('commit', '-qm', 'infra');
  const commit = git('rev-parse', 'HEAD').trim();
  const main = readFileSync(path.join(dir, 'infra', 'main.tf'), 'utf8');
  host.state.installations.set('55', { id: 55, account: { login: 'acme', type: 'Organization' }, repos: [{ id: 1, name: 'infra', full_name: 'acme/infra', owner: { login: 'acme' }, private: true, default_branch: 'main' }] });
  host.addUser({ id: 6006, login: 'installer', name: 'Installer', email: null, emails: [] });
  host.state.userInstallations.set('installer', ['55']);
  host.state.branches.set('acme/infra', [{ name: 'main', protected: true, sha: commit }]);
  for (const ref of ['main', commit]) host.state.files.set(`acme/infra@${ref}:infra/main.tf`, main);

  const config = (await api('POST', '/api/repo-configs', { repositoryName: 'acme/infra', branch: 'main', provider: 'cloud_a' })).body.data._id;
  const scan = await services.scans!.trigger(owner.orgId, config, null);
  await services.scans!.recordScanResult(owner.orgId, scan._id, { status: 'running' });
  await services.scans!.recordScanResult(owner.orgId, scan._id, {
    status: 'completed', drifts: [
      { resourceType: 'aws_instance', resourceAddress: 'aws_instance.web', severity: 'medium', changeType: 'changed', ruleId: null, commit, declaredIn: { file: 'infra/main.tf', line: 8 },
        diff: { changes: [{ attribute: 'instance_type', before: 't3.micro', after: 't3.large' }, { attribute: 'tags.Owner', before: 'platform', after: 'security' }] } },
      { resourceType: 'aws_instance', resourceAddress: 'aws_instance.db', severity: 'low', changeType: 'changed', commit, declaredIn: { file: 'infra/main.tf', line: 51 },
        diff: { changes: [{ attribute: 'instance_type', before: 'r6g.large', after: 'r6g.xlarge' }, { attribute: 'db_password', before: 'hunter2', after: 'hunter3' }] } },
      { resourceType: 'aws_security_group', resourceAddress: 'aws_security_group.web', severity: 'critical', changeType: 'changed', ruleId: 'sg-ingress-open-to-world', commit, declaredIn: { file: 'infra/main.tf', line: 31 },
        diff: { changes: [{ attribute: 'ingress', before: [], after: [{ cidr_blocks: ['0.0.0.0/0'], from_port: 22, protocol: 'tcp', to_port: 22 }] }] } },
    ],
  });
  const drifts = (await api('GET', '/api/drifts?limit=10')).body.data as { _id: string; resourceAddress: string }[];
  const id = (address: string) => drifts.find((d) => d.resourceAddress === address)!._id;
  const web = id('aws_instance.web');
  const db = id('aws_instance.db');
  const sg = id('aws_security_group.web');

  await t.test('no installation yet: a 409 naming it, never 401/403/5xx', async (t) => {
    const res = await api('POST', `/api/drifts/${web}/generate-fix`);
    t.equal(res.status, 409);
    t.match(res.body.error.message, /No source host app installation is active/);
    const installed = await installApp(app, host, owner.token, '55', 'installer');
    t.equal(installed.searchParams.get('installation'), '55', 'the installing user sees it on the host');
  });

  await t.test('reanalyze: the rule table without a key, then each provider; failures keep the old analysis', async (t) => {
    const rules = await api('POST', `/api/drifts/${sg}/reanalyze`);
    t.equal(rules.status, 200);
    t.equal(rules.body.data.aiAnalysis.source, 'rules');
    t.equal(rules.body.data.aiAnalysis.riskLevel, 'critical');
    t.match(rules.body.data.aiAnalysis.summary, /ingress/);
    t.match(rules.body.data.aiAnalysis.recommendation, /Revert/);
    t.equal(ai.state.requests.length, 0, 'no provider called without a key');

    t.equal((await api('POST', '/api/auth/provider-a-api-key', { apiKey: 'sk-test-a-0123456789abcdef' })).status, 200);
    const a = await api('POST', `/api/drifts/${db}/reanalyze`);
    t.equal(a.status, 200, JSON.stringify(a.body));
    t.same(a.body.data.aiAnalysis, { summary: 'The instance type was changed by hand.', riskLevel: 'medium', recommendation: 'Accept it into the code if intended.', source: 'provider_a' });
    const req = ai.state.requests.at(-1)!;
    t.equal(req.path, '/v1/chat/completions');
    t.equal(req.body.response_format.type, 'json_schema');
    t.same(req.body.response_format.json_schema.schema.required, ['summary', 'riskLevel', 'recommendation']);
    const prompt = JSON.stringify(req.body.messages);
    t.match(prompt, /aws_instance\.db/);
    t.match(prompt, /instance_type: \\"r6g\.large\\" -> \\"r6g\.xlarge\\"/);
    t.notMatch(prompt, /hunter/, 'a secret-named value is masked');

    for (const [mode, message] of [['bad-schema', /does not match the analysis schema/], ['refuse-key', /refused the key \(401/], ['down', /unreachable/]] as const) {
      ai.state.mode = mode;
      const res = await api('POST', `/api/drifts/${db}/reanalyze`);
      t.equal(res.status, 502, mode);
      t.equal(res.body.error.code, 'ai_provider_error');
      t.match(res.body.error.message, message);
      t.equal((await api('GET', `/api/drifts/${db}`)).body.data.aiAnalysis.source, 'provider_a', `${mode}: the old analysis is kept`);
    }
    ai.state.mode = 'ok';

    t.equal((await api('POST', '/api/auth/provider-b-api-key', { apiKey: 'sk-ant-test-0123456789' })).status, 200);
    t.equal((await api('PUT', '/api/auth/ai-provider', { provider: 'provider_b' })).status, 200);
    const b = await api('POST', `/api/drifts/${db}/reanalyze`);
    t.equal(b.body.data.aiAnalysis.source, 'provider_b');
    t.equal(b.body.data.aiAnalysis.summary, 'From provider b.');
    const breq = ai.state.requests.at(-1)!;
    t.equal(breq.path, '/v1/messages');
    t.equal(breq.body.tool_choice.name, breq.body.tools[0].name);
    t.same(breq.body.tools[0].input_schema.required, ['summary', 'riskLevel', 'recommendation']);
  });

  let fixCode = '';
  await t.test('generate-fix: an exact diff at the scanned commit; revert for critical; advice for a variable', async (t) => {
    const res = await api('POST', `/api/drifts/${web}/generate-fix`);
    t.equal(res.status, 200, JSON.stringify(res.body));
    const fix = res.body.data;
    t.equal(fix.strategy, 'accept', 'medium severity: accept by default');
    t.same(fix.exact, ['instance_type', 'tags.Owner']);
    t.equal(fix.explanation, 'Provider b explains the fix.', 'the AI provider writes the explanation');
    fixCode = fix.fixCode;
    writeFileSync(path.join(dir, 'web.patch'), fixCode);
    t.doesNotThrow(() => git('apply', '--check', 'web.patch'), 'git apply --check at the scanned commit');
    t.match(fixCode, /\+\s+instance_type = "t3\.large"/);

    const revert = await api('POST', `/api/drifts/${sg}/generate-fix`);
    t.equal(revert.body.data.strategy, 'revert');
    t.equal(revert.body.data.fixCode, '');
    const accept = await api('POST', `/api/drifts/${sg}/generate-fix?strategy=accept`);
    writeFileSync(path.join(dir, 'sg.patch'), accept.body.data.fixCode);
    t.doesNotThrow(() => git('apply', '--check', 'sg.patch'), 'the ingress blocks patch applies');

    await api('DELETE', '/api/auth/provider-b-api-key');
    const dbFix = (await api('POST', `/api/drifts/${db}/generate-fix`)).body.data;
    t.equal(dbFix.fixCode, '', 'nothing exact to write');
    t.match(dbFix.advice[0].text, /variable "db_instance_type"/);
    t.match(dbFix.explanation, /variable "db_instance_type"/, 'without a key the computed explanation');
  });

  await t.test('approve-fix and create-pr', async (t) => {
    const other = await register(app);
    t.equal((await api('POST', `/api/drifts/${web}/approve-fix`, undefined, bearer(other.token))).status, 404, "another organization's drift");
    const early = await api('POST', `/api/drifts/${web}/create-pr`);
    t.equal(early.status, 409);
    t.match(early.body.error.message, /not approved/);
    const approved = await api('POST', `/api/drifts/${web}/approve-fix`);
    t.equal(approved.status, 200);
    t.equal(approved.body.data.approvedBy, owner.userId);

    const pr = await api('POST', `/api/drifts/${web}/create-pr`);
    t.equal(pr.status, 200, JSON.stringify(pr.body));
    t.match(pr.body.data, { prNumber: 1, branch: /^drift-fix\// });
    t.match(pr.body.data.prUrl, /\/acme\/infra\/pull\/1$/);
    const again = await api('POST', `/api/drifts/${web}/create-pr`);
    t.same(again.body.data, pr.body.data, 'a second call answers the same pull request');
    t.equal(host.state.pulls.length, 1);
    t.equal(host.state.pulls[0].base, 'main');
    git('apply', 'web.patch');
    t.equal(host.state.files.get(`acme/infra@${pr.body.data.branch}:infra/main.tf`), readFileSync(path.join(dir, 'infra', 'main.tf'), 'utf8'), 'the branch holds the patched file');

    const noFile = await api('POST', `/api/drifts/${db}/approve-fix`);
    t.equal(noFile.status, 200);
    const noPr = await api('POST', `/api/drifts/${db}/create-pr`);
    t.equal(noPr.status, 409);
    t.match(noPr.body.error.message, /changes no file/);

    // A scan that finds another diff voids the approval: proven through real re-scans in moto
    // (rescan-moto.test.ts), not by editing the stored diff here.

    await ctx.audit.flush();
    const { entries } = await ctx.audit.query({ orgId: owner.orgId }, { page: 1, limit: 200 });
    const actions = new Set(entries.map((e) => e.action));
    for (const a of ['drift.fix_generated', 'drift.fix_approved', 'drift.pr_created']) t.ok(actions.has(a), a);
    t.notMatch(JSON.stringify(entries), /ghs_|sk-test|sk-ant/, 'no token or key in the trail');
  });
});
