// The SCIM filter grammar (RFC 7644 §3.4.2.2) and PATCH paths: precedence, grouping, paths,
// values, the database form of each and what is left to the evaluator.
import t from 'tap';
import { parseFilter, parsePatchPath, USER_ATTRS, GROUP_ATTRS } from '../../../plugins/sso-scim/filter.ts';
import { compileFilter, matches } from '../../../plugins/sso-scim/filter-match.ts';
import { applyPatch } from '../../../plugins/sso-scim/patch.ts';

/** An AppError carrying this scimType (tap matches the fields given). */
const wants = (scimType: string) => ({ details: { scimType } }) as object as Error;
const ENT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

t.test('precedence: not > and > or, parentheses override', async (t) => {
  const f = parseFilter('userName eq "a" or userName eq "b" and active eq true');
  t.equal(f.kind, 'or', 'and binds tighter than or');
  t.equal(f.kind === 'or' && f.right.kind, 'and');
  const g = parseFilter('(userName eq "a" or userName eq "b") and active eq true');
  t.equal(g.kind, 'and');
  const n = parseFilter('not (userName eq "a") and title pr');
  t.equal(n.kind, 'and');
  t.equal(n.kind === 'and' && n.left.kind, 'not');
  t.match(parseFilter('USERNAME EQ "x" AND Active Eq TRUE'), { kind: 'and' }, 'keywords and attribute names are case-insensitive');
});

t.test('paths and values', async (t) => {
  t.match(parseFilter('name.givenName sw "A"'), { kind: 'cmp', path: { attr: 'name', sub: 'givenName' }, op: 'sw' });
  t.match(parseFilter(`${ENT}:manager.value eq "m1"`), { kind: 'cmp', path: { schema: 'enterprise', attr: 'manager', sub: 'value' } });
  t.match(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "x"'), { path: { schema: 'core', attr: 'userName' } });
  t.match(parseFilter('emails[type eq "work" and value co "@x.test"]'), { kind: 'value', path: { attr: 'emails' }, filter: { kind: 'and' } });
  t.match(parseFilter('title eq "say \\"hi\\""'), { value: 'say "hi"' }, 'JSON string escapes');
  t.match(parseFilter('meta.version eq 1.5e2'), { value: 150 });
  t.match(parsePatchPath('emails[type eq "work"].value'), { path: { attr: 'emails' }, sub: 'value', filter: { kind: 'cmp' } });
  t.match(parsePatchPath('members[value eq "2819c223"]'), { path: { attr: 'members' } });
});

t.test('invalid filters are 400 invalidFilter', async (t) => {
  for (const bad of ['', 'userName', 'userName eq', 'userName eq "a" and', '(userName eq "a"', 'userName eq "a")', 'userName equals "a"',
    'userName eq unquoted', 'emails[type eq "a"', 'emails[type eq "a"][x eq "b"]', 'userName eq "unterminated', 'nope eq "a"', 'active co "t"', 'urn:unknown:schema:x eq "a"']) {
    t.throws(() => compileFilter(USER_ATTRS, parseFilter(bad)), wants('invalidFilter'), JSON.stringify(bad));
  }
});

t.test('the database form uses one indexed equality and ranges for the rest', async (t) => {
  t.same(compileFilter(USER_ATTRS, parseFilter('userName eq "Ada@X.test"')), { query: { userNameLower: 'ada@x.test' }, residual: false });
  const both = compileFilter(USER_ATTRS, parseFilter('userName eq "a@x.test" and externalId eq "e1"')).query;
  t.same(both, { $and: [{ userNameLower: 'a@x.test' }, { externalId: { $gte: 'e1', $lte: 'e1' } }] }, 'a second equality becomes a range');
  t.same(compileFilter(GROUP_ATTRS, parseFilter('members[value eq "abc"]')).query, { members: { $all: ['abc'] } });
  t.equal(compileFilter(USER_ATTRS, parseFilter('displayName gt "m"')).residual, true, 'case-insensitive ordering is left to the evaluator');
  t.equal(compileFilter(USER_ATTRS, parseFilter('emails[type eq "work"]')).residual, true, 'value filters are decided in memory');
});

t.test('the evaluator', async (t) => {
  const user = { userName: 'Ada@X.test', active: true, emails: [{ value: 'ada@x.test', type: 'work' }, { value: 'a@home.test', type: 'home' }], [ENT]: { department: 'R&D' }, meta: { lastModified: '2024-05-01T00:00:00Z' } };
  const m = (f: string) => matches(USER_ATTRS, parseFilter(f), user);
  t.ok(m('userName eq "ada@x.test"'));
  t.notOk(m('emails[type eq "work" and value ew "home.test"]'), 'both conditions on one element');
  t.ok(m('emails[type eq "home"].value co "home"'));
  t.ok(m(`${ENT}:department eq "r&d"`));
  t.ok(m('meta.lastModified ge "2024-01-01T00:00:00Z" and not (active eq false)'));
  t.notOk(m('title pr'));
});

t.test('PATCH engine forms', async (t) => {
  const base = { schemas: [], id: 'x', userName: 'a@x.test', active: true, emails: [{ value: 'a@x.test', type: 'work', primary: true }] };
  const r = applyPatch(USER_ATTRS, base, [
    { op: 'Replace', value: { active: 'False', 'name.givenName': 'Ada', [`${ENT}:department`]: 'Ops' } },
    { op: 'replace', path: 'emails[type eq "work"].value', value: 'new@x.test' },
    { op: 'add', path: 'emails', value: [{ value: 'b@x.test', type: 'home', primary: 'False' }] },
    { op: 'remove', path: 'emails[type eq "home"]' },
  ]);
  t.match(r, { active: false, name: { givenName: 'Ada' }, [ENT]: { department: 'Ops' }, emails: [{ value: 'new@x.test', type: 'work' }] });
  t.equal((r.emails as unknown[]).length, 1);
  t.throws(() => applyPatch(USER_ATTRS, base, [{ op: 'replace', path: 'id', value: 'y' }]), wants('mutability'));
  t.throws(() => applyPatch(USER_ATTRS, base, [{ op: 'replace', path: 'phoneNumbers[type eq "work" and value co "1"].value', value: '2' }]), wants('noTarget'));
  t.throws(() => applyPatch(USER_ATTRS, base, [{ op: 'move', path: 'title', value: 'x' }]), wants('invalidValue'));
});
