// Deciding filters: the database form (compile.ts: one indexed equality, ranges for the rest,
// residual for what only memory can decide) and the in-memory evaluator (match.ts) on a
// resource's SCIM JSON, including value paths, `pr`, case rules and dates.
import t from 'tap';
import { compileFilter, matches, parseFilter, valuesAt } from '../../../lib/scim/index.ts';
import { ENT, GROUP, USER, scimType } from './attrs.ts';

const ada = {
  id: 'u1', userName: 'Ada@X.test', title: '', active: true, name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: 'ada@x.test', type: 'work', primary: true }, { value: 'a@home.test', type: 'home' }],
  [ENT]: { department: 'R&D', manager: { value: 'm1' } }, meta: { lastModified: '2024-05-01T00:00:00Z' },
};
const m = (f: string, r: Record<string, unknown> = ada) => matches(USER, parseFilter(f), r);

t.test('comparisons, case rules and presence', async (t) => {
  t.ok(m('userName eq "ada@x.test"'), 'userName is case-insensitive');
  t.notOk(m('id eq "U1"'), 'id is case-exact');
  t.ok(m('name.givenName sw "ad" and name.familyName ew "LACE"'));
  t.ok(m('userName co "@x."'));
  t.ok(m('userName ne "bob@x.test"'));
  t.ok(m('emails co "home.test"'), 'a multi-valued attribute compares its values');
  t.notOk(m('title pr'), 'an empty string is not present');
  t.ok(m('emails pr'));
  t.notOk(m('displayName pr'), 'an absent attribute is not present');
  t.ok(m('displayName eq null'), 'absent equals null');
  t.ok(m('active eq true') && !m('active eq false'));
  t.ok(m(`${ENT}:department eq "r&d"`), 'the enterprise extension by URN');
  t.ok(m(`${ENT}:manager.value eq "m1"`));
  t.ok(m('meta.lastModified ge "2024-01-01T00:00:00Z" and not (active eq false)'), 'dates compare as dates');
  t.notOk(m('meta.lastModified lt "2024-01-01T00:00:00+00:00"'));
});

t.test('value paths decide per element', async (t) => {
  t.ok(m('emails[type eq "work" and value ew "x.test"]'));
  t.notOk(m('emails[type eq "work" and value ew "home.test"]'), 'both conditions on one element');
  t.ok(m('emails[type eq "home"].value co "home"'), 'a sub-attribute after the value filter');
  t.ok(m('emails[primary eq true]'));
  t.ok(m('emails[not (type eq "work")]'));
  t.same(valuesAt(ada, { schema: 'core', attr: 'EMAILS', sub: 'Value' }), ['ada@x.test', 'a@home.test'], 'names are case-insensitive');
});

t.test('unknown attributes and mistyped comparisons are refused', async (t) => {
  t.throws(() => m('nope eq "a"'), scimType('invalidFilter'), 'unknown attribute');
  t.throws(() => m('title.x eq "a"'), scimType('invalidFilter'), 'no sub-attributes');
  t.throws(() => compileFilter(USER, parseFilter('active co "t"')), scimType('invalidFilter'), 'co on a boolean');
  t.throws(() => compileFilter(USER, parseFilter('meta.created gt "yesterday"')), scimType('invalidFilter'), 'a date that is not one');
  t.throws(() => compileFilter(USER, parseFilter('title gt null')), scimType('invalidFilter'));
  t.throws(() => compileFilter(USER, parseFilter('title[value eq "x"]')), scimType('invalidFilter'), 'a value filter on a simple attribute');
});

t.test('the database form: one indexed equality, ranges for the rest, residual for memory', async (t) => {
  t.same(compileFilter(USER, parseFilter('userName eq "Ada@X.test"')), { query: { userNameLower: 'ada@x.test' }, residual: false }, 'the lower-case copy');
  t.same(compileFilter(USER, parseFilter('userName eq "a@x.test" and externalId eq "e1"')).query,
    { $and: [{ userNameLower: 'a@x.test' }, { externalId: { $gte: 'e1', $lte: 'e1' } }] }, 'a second equality becomes a range');
  t.same(compileFilter(USER, parseFilter('userName eq "a" or externalId eq "b"')).query, { $or: [{ userNameLower: 'a' }, { externalId: 'b' }] }, 'each or branch uses its own index');
  t.same(compileFilter(USER, parseFilter('active eq true')).query, { active: { $gte: true, $lte: true } });
  t.same(compileFilter(USER, parseFilter('title pr')).query, { title: { $exists: true, $nin: [null, ''] } });
  t.same(compileFilter(USER, parseFilter('emails pr')).query, { 'emails.0': { $exists: true } });
  t.same(compileFilter(USER, parseFilter('title sw "Dr."')).query, { title: { $regex: '^Dr\\.', $options: 'i' } }, 'regex escaped');
  t.same(compileFilter(USER, parseFilter('not (title eq "x")')).query, { $nor: [{ title: { $regex: '^x$', $options: 'i' } }] });
  t.same(compileFilter(GROUP, parseFilter('members[value eq "abc"]')).query, { members: { $all: ['abc'] } }, 'bare-id members');
  t.equal(compileFilter(USER, parseFilter('displayName gt "m"')).residual, true, 'case-insensitive ordering is left to memory');
  t.equal(compileFilter(USER, parseFilter('emails[type eq "work"]')).residual, true, 'value filters are decided in memory');
  const c = compileFilter(USER, parseFilter('emails[type eq "work" and value co "x"]'));
  t.match(c.query, { $and: [{ 'emails.type': {} }, { 'emails.value': {} }] }, 'widened to the dotted fields');
});
