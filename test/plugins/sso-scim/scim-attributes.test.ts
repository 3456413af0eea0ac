// The protocol library (lib/scim, tested on its own under test/lib/scim) on this plugin's
// attribute tables: the database form of filters on the stored fields, and the library's
// refusals as the app's 400 with details.scimType (scim-protocol.ts).
import t from 'tap';
import { parsePatchPath } from '../../../lib/scim/index.ts';
import { applyPatch, compileFilter, matches, parseFilter } from '../../../plugins/sso-scim/scim-protocol.ts';
import { GROUP_ATTRS, USER_ATTRS } from '../../../plugins/sso-scim/scim-attributes.ts';
import { AppError } from '../../../core/errors.ts';

/** An AppError carrying this scimType (tap matches the fields given). */
const wants = (scimType: string) => ({ details: { scimType } }) as object as Error;
const ENT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

t.test('invalid filters are the app\'s 400 invalidFilter', async (t) => {
  for (const bad of ['', 'userName', 'userName eq', 'userName eq "a" and', '(userName eq "a"', 'userName eq "a")', 'userName equals "a"',
    'userName eq unquoted', 'emails[type eq "a"', 'emails[type eq "a"][x eq "b"]', 'userName eq "unterminated', 'nope eq "a"', 'active co "t"', 'urn:unknown:schema:x eq "a"']) {
    t.throws(() => compileFilter(USER_ATTRS, parseFilter(bad)), wants('invalidFilter'), JSON.stringify(bad));
  }
  try { parseFilter('userName eq'); t.fail('refused'); } catch (err) {
    t.ok(err instanceof AppError, 'an AppError');
    t.match(err, { statusCode: 400, code: 'bad_request', details: { scimType: 'invalidFilter' } });
  }
  t.match(parsePatchPath('members[value eq "2819c223"]'), { path: { attr: 'members' } }, 'the library parses on its own');
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
