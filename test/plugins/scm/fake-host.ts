// A loopback server answering as GitHub's documented REST API (v3) and OAuth web flow do:
// POST /login/oauth/access_token (200 with `error` for a refused code), /user, /user/emails,
// /user/repos, /user/installations (per user, paged as documented: {total_count, installations};
// only for a token of the app's own client, as GitHub answers 403 to an OAuth-app token),
// /app/installations/{id} and /access_tokens (app JWT checked: RS256 against
// the app's public key, iss = app id, at most 10 minutes), /installation/repositories,
// /repos/{o}/{r}/branches, git refs, contents and pulls.
import type { Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { createVerify, generateKeyPairSync } from 'node:crypto';

export interface FakeUser { id: number; login: string; name: string; email: string | null; emails: { email: string; primary: boolean; verified: boolean }[] }
export interface FakeRepo { id: number; name: string; full_name: string; owner: { login: string }; private: boolean; default_branch: string }

export const APP_ID = '424242';

export async function fakeHost(t: Test) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const state = {
    /** OAuth code -> user login and the client it was issued to (each code works once). */
    codes: new Map<string, { login: string; clientId: string }>(),
    /** client id -> secret: the OAuth app, and the app's own client (GitHub Apps have one). */
    clients: new Map<string, string>([['gh-client', 'gh-secret'], ['gh-app-client', 'gh-app-secret']]),
    /** Clients whose user tokens may list installations (GitHub: a GitHub App's user access tokens only). */
    appClients: new Set<string>(['gh-app-client']),
    /** user access token -> the client that issued it */
    tokenClients: new Map<string, string>(),
    /** login -> ids of the installations this user can see (GET /user/installations). */
    userInstallations: new Map<string, string[]>(),
    users: new Map<string, FakeUser>(),
    /** user access token -> login */
    tokens: new Map<string, string>(),
    userRepos: new Map<string, FakeRepo[]>(),
    installations: new Map<string, { id: number; account: { login: string; type: string }; repos: FakeRepo[] }>(),
    /** installation token -> installation id */
    installationTokens: new Map<string, string>(),
    tokenLifetimeMs: 60 * 60_000,
    mints: 0,
    branches: new Map<string, { name: string; protected: boolean; sha: string }[]>(),
    /** "owner/repo@branch:path" -> file text */
    files: new Map<string, string>(),
    pulls: [] as { number: number; head: string; base: string; title: string; body: string; html_url: string; full_name: string }[],
    calls: [] as { method: string; path: string; auth?: string; body: any }[],
    appJwts: [] as { iat: number; exp: number; iss: string }[],
    /** Every call answers 503 (an outage). */
    down: false,
  };
  let seq = 0;

  function appJwtOk(auth: string | undefined): boolean {
    const jwt = auth?.replace(/^Bearer /, '') ?? '';
    const [h, p, s] = jwt.split('.');
    if (!h || !p || !s) return false;
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    if (header.alg !== 'RS256') return false;
    const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(publicKey, Buffer.from(s, 'base64url'));
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    state.appJwts.push(claims);
    const now = Math.floor(Date.now() / 1000);
    return ok && String(claims.iss) === APP_ID && claims.exp - claims.iat <= 600 && claims.exp > now && claims.iat <= now + 60;
  }

  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      let body: any = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = raw; }
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      const method = req.method ?? 'GET';
      state.calls.push({ method, path: req.url ?? '', auth: req.headers.authorization, body });
      const send = (status: number, payload: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(payload)); };
      if (state.down) return send(503, { message: 'Service Unavailable' });
      const notFound = () => send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      const auth = req.headers.authorization;
      const bearer = auth?.replace(/^(Bearer|token) /, '') ?? '';

      if (path === '/login/oauth/access_token' && method === 'POST') {
        if (!body?.client_id || state.clients.get(body.client_id) !== body?.client_secret) return send(200, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
        const issued = state.codes.get(body.code);
        if (!issued || issued.clientId !== body.client_id) return send(200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.', error_uri: 'https://docs.github.com/apps' });
        state.codes.delete(body.code);
        const login = issued.login;
        const token = `${state.appClients.has(issued.clientId) ? 'ghu' : 'gho'}_${login}_${++seq}`;
        state.tokens.set(token, login);
        state.tokenClients.set(token, issued.clientId);
        return send(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email,repo' });
      }
      if (path.startsWith('/app/')) {
        if (!appJwtOk(auth)) return send(401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' });
        const m = /^\/app\/installations\/(\d+)(\/access_tokens)?$/.exec(path);
        const inst = m && state.installations.get(m[1]);
        if (!m || !inst) return notFound();
        if (!m[2]) return send(200, { id: inst.id, account: inst.account, repository_selection: 'selected', app_id: Number(APP_ID) });
        if (method !== 'POST') return notFound();
        state.mints++;
        const token = `ghs_${inst.id}_${++seq}`;
        state.installationTokens.set(token, String(inst.id));
        return send(201, { token, expires_at: new Date(Date.now() + state.tokenLifetimeMs).toISOString(), permissions: { contents: 'write', pull_requests: 'write' }, repository_selection: 'selected' });
      }
      const userLogin = state.tokens.get(bearer);
      const instId = state.installationTokens.get(bearer);
      if (!userLogin && !instId) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      const user = userLogin ? state.users.get(userLogin)! : null;
      if (path === '/user' && user) return send(200, { id: user.id, login: user.login, name: user.name, email: user.email, avatar_url: `https://avatars.example/${user.id}` });
      if (path === '/user/emails' && user) return send(200, user.emails.map((e) => ({ ...e, visibility: e.primary ? 'public' : null })));
      if (path === '/user/repos' && user) {
        const all = state.userRepos.get(user.login) ?? [];
        const per = Number(url.searchParams.get('per_page') ?? 30); const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, all.slice((page - 1) * per, page * per));
      }
      if (path === '/user/installations' && user) {
        if (!state.appClients.has(state.tokenClients.get(bearer) ?? '')) {
          return send(403, { message: 'You must authenticate with an access token authorized to a GitHub App in order to list installations', documentation_url: 'https://docs.github.com/rest/apps/installations' });
        }
        const visible = (state.userInstallations.get(user.login) ?? []).map((id) => state.installations.get(id)).filter((i) => i !== undefined);
        const per = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100); const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, { total_count: visible.length, installations: visible.slice((page - 1) * per, page * per).map((i) => ({ id: i.id, account: i.account, app_id: Number(APP_ID), repository_selection: 'selected', target_type: i.account.type })) });
      }
      if (path === '/installation/repositories' && instId) {
        const repos = state.installations.get(instId)?.repos ?? [];
        const per = Number(url.searchParams.get('per_page') ?? 30); const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, { total_count: repos.length, repositories: repos.slice((page - 1) * per, page * per) });
      }
      const rm = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
      if (!rm) return notFound();
      const full = `${decodeURIComponent(rm[1])}/${decodeURIComponent(rm[2])}`;
      const reachable = instId
        ? state.installations.get(instId)?.repos.some((r) => r.full_name === full)
        : (state.userRepos.get(userLogin!) ?? []).some((r) => r.full_name === full);
      if (!reachable) return notFound();
      const rest = rm[3] ?? '';
      const branches = state.branches.get(full) ?? [];
      if (rest === '' && method === 'GET') {
        const r = [...state.installations.values()].flatMap((i) => i.repos).find((x) => x.full_name === full)!;
        return send(200, r);
      }
      if (rest === '/branches') return send(200, branches.map((b) => ({ name: b.name, commit: { sha: b.sha, url: 'x' }, protected: b.protected })));
      let mm = /^\/git\/ref\/heads\/(.+)$/.exec(rest);
      if (mm && method === 'GET') {
        const b = branches.find((x) => x.name === decodeURIComponent(mm![1]));
        return b ? send(200, { ref: `refs/heads/${b.name}`, object: { sha: b.sha, type: 'commit' } }) : notFound();
      }
      if (rest === '/git/refs' && method === 'POST') {
        const name = String(body.ref).replace(/^refs\/heads\//, '');
        if (branches.some((b) => b.name === name)) return send(422, { message: 'Reference already exists' });
        const from = branches.find((b) => b.sha === body.sha);
        branches.push({ name, protected: false, sha: body.sha });
        state.branches.set(full, branches);
        for (const [k, v] of [...state.files]) if (from && k.startsWith(`${full}@${from.name}:`)) state.files.set(k.replace(`@${from.name}:`, `@${name}:`), v);
        return send(201, { ref: body.ref, object: { sha: body.sha, type: 'commit' } });
      }
      mm = /^\/contents\/(.+)$/.exec(rest);
      if (mm) {
        const file = decodeURIComponent(mm[1]);
        if (method === 'GET') {
          const ref = url.searchParams.get('ref') ?? 'main';
          const text = state.files.get(`${full}@${ref}:${file}`);
          if (text === undefined) return notFound();
          return send(200, { type: 'file', encoding: 'base64', path: file, sha: `blob-${Buffer.from(text).length}`, content: Buffer.from(text).toString('base64') });
        }
        if (method === 'PUT') {
          const key = `${full}@${body.branch}:${file}`;
          const old = state.files.get(key);
          if (old !== undefined && body.sha !== `blob-${Buffer.from(old).length}`) return send(409, { message: `${file} does not match ${body.sha}` });
          state.files.set(key, Buffer.from(body.content, 'base64').toString('utf8'));
          const b = branches.find((x) => x.name === body.branch);
          if (b) b.sha = `c${++seq}`;
          return send(200, { content: { path: file }, commit: { sha: b?.sha, message: body.message } });
        }
      }
      if (rest === '/pulls' && method === 'GET') {
        const head = url.searchParams.get('head');
        return send(200, state.pulls.filter((p) => p.full_name === full && (!head || `${full.split('/')[0]}:${p.head}` === head)).map((p) => ({ number: p.number, html_url: p.html_url, head: { ref: p.head }, state: 'open' })));
      }
      if (rest === '/pulls' && method === 'POST') {
        if (!branches.some((b) => b.name === body.head)) return send(422, { message: 'Validation Failed', errors: [{ field: 'head', code: 'invalid' }] });
        const number = state.pulls.length + 1;
        const pr = { number, head: body.head, base: body.base, title: body.title, body: body.body, html_url: `https://github.example/${full}/pull/${number}`, full_name: full };
        state.pulls.push(pr);
        return send(201, { number, html_url: pr.html_url, state: 'open', head: { ref: pr.head }, base: { ref: pr.base } });
      }
      notFound();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    state, base, privateKey,
    env: {
      SCM_CLIENT_ID: 'gh-client', SCM_CLIENT_SECRET: 'gh-secret', SCM_WEB_URL: base, SCM_API_URL: base,
      SCM_APP_ID: APP_ID, SCM_APP_SLUG: 'drift-app', SCM_APP_PRIVATE_KEY: privateKey, SCM_APP_CLIENT_ID: 'gh-app-client', SCM_APP_CLIENT_SECRET: 'gh-app-secret',
    },
    addUser(u: FakeUser) { state.users.set(u.login, u); },
    /** A code the token endpoint accepts once, for this user (the OAuth app's by default). */
    code(login: string, clientId = 'gh-client') { const c = `code-${login}-${++seq}`; state.codes.set(c, { login, clientId }); return c; },
    /** The code the host sends to the app's callback after an installation ("Request user authorization during installation"). */
    appCode(login: string) { return this.code(login, 'gh-app-client'); },
  };
}
export type FakeHost = Awaited<ReturnType<typeof fakeHost>>;
