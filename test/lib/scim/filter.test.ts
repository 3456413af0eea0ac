// The SCIM filter grammar (RFC 7644 §3.4.2.2) and PATCH paths (§3.5.2), on their own: precedence,
// grouping, `pr`, attribute and value paths, literals, and every refusal a ScimError invalidFilter
// (invalidPath for PATCH paths).
import t from 'tap';
import { parseFilter, parsePatchPath, ScimError } from '../../../lib/scim/index.ts';
import { ENT, scimType } from './attrs.ts';

t.test('precedence: not > and > or, parentheses override', async (t) => {
  const f = parseFilter('userName eq "a" or userName eq "b" and active eq true');
  t.equal(f.kind, 'or', 'and binds tighter than or');
  t.equal(f.kind === 'or' && f.right.kind, 'and');
  const g = parseFilter('(userName eq "a" or userName eq "b") and active eq true');
  t.equal(g.kind, 'and', 'parentheses group first');
  const n = parseFilter('not (userName eq "a") and title pr');
  t.equal(n.kind, 'and');
  t.equal(n.kind === 'and' && n.left.kind, 'not', 'not binds tightest');
  const chain = parseFilter('a eq 1 or b eq 2 or c eq 3');
  t.match(chain, { kind: 'or', left: { kind: 'or' }, right: { kind: 'cmp', path: { attr: 'c' } } }, 'or is left-associative');
  t.match(parseFilter('USERNAME EQ "x" AND Active Eq TRUE'), { kind: 'and', right: { value: true } }, 'keywords and attribute names are case-insensitive');
});

t.test('RFC 7644 §3.4.2.2 example filters parse', async (t) => {
  t.match(parseFilter('userName Eq "john"'), { kind: 'cmp', op: 'eq', value: 'john' });
  t.match(parseFilter('title pr'), { kind: 'pr', path: { attr: 'title' } });
  t.match(parseFilter('title pr and userType eq "Employee"'), { kind: 'and', left: { kind: 'pr' } });
  t.match(parseFilter('title pr or userType eq "Intern"'), { kind: 'or' });
  t.match(parseFilter('meta.lastModified gt "2011-05-13T04:42:34Z"'), { path: { attr: 'meta', sub: 'lastModified' }, op: 'gt' });
  t.match(parseFilter('userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")'), { kind: 'and', right: { kind: 'or' } });
  t.match(parseFilter('userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")'), { right: { kind: 'not', expr: { kind: 'or' } } });
  t.match(parseFilter('userType eq "Employee" and emails[type eq "work" and value co "@example.com"]'),
    { right: { kind: 'value', path: { attr: 'emails' }, filter: { kind: 'and' } } });
  t.match(parseFilter('emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]'),
    { kind: 'or', left: { kind: 'value' }, right: { kind: 'value', path: { attr: 'ims' } } });
});

t.test('paths and values', async (t) => {
  t.match(parseFilter('name.givenName sw "A"'), { kind: 'cmp', path: { attr: 'name', sub: 'givenName' }, op: 'sw' });
  t.match(parseFilter(`${ENT}:manager.value eq "m1"`), { kind: 'cmp', path: { schema: 'enterprise', attr: 'manager', sub: 'value' } });
  t.match(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "x"'), { path: { schema: 'core', attr: 'userName' } });
  t.match(parseFilter('emails[type eq "work"].value eq "x"'), { kind: 'value', then: { sub: 'value', op: 'eq', value: 'x' } });
  t.match(parseFilter('title eq "say \\"hi\\""'), { value: 'say "hi"' }, 'JSON string escapes');
  t.match(parseFilter('meta.version eq 1.5e2'), { value: 150 });
  t.match(parseFilter('x eq -2'), { value: -2 });
  t.match(parseFilter('manager eq null'), { value: null });
  t.match(parseFilter('active eq false'), { value: false });
});

t.test('PATCH paths', async (t) => {
  t.match(parsePatchPath('title'), { path: { attr: 'title' } });
  t.match(parsePatchPath('name.familyName'), { path: { attr: 'name', sub: 'familyName' } });
  t.match(parsePatchPath('emails[type eq "work"].value'), { path: { attr: 'emails' }, sub: 'value', filter: { kind: 'cmp' } });
  t.match(parsePatchPath('members[value eq "2819c223-7f76-453a-919d-413861904646"]'), { path: { attr: 'members' }, filter: { value: '2819c223-7f76-453a-919d-413861904646' } });
  t.match(parsePatchPath(`${ENT}:department`), { path: { schema: 'enterprise', attr: 'department' } });
  for (const bad of ['', 'emails[type eq "work"', 'name.givenName[type eq "x"]', 'emails[type eq]', 'a.b.c', 'emails[type eq "a"].1x', 'title extra']) {
    t.throws(() => parsePatchPath(bad), scimType('invalidPath'), JSON.stringify(bad));
  }
});

t.test('anything outside the grammar is invalidFilter', async (t) => {
  for (const bad of ['', '   ', 'userName', 'userName eq', 'userName eq "a" and', '(userName eq "a"', 'userName eq "a")', 'userName equals "a"',
    'userName eq unquoted', 'emails[type eq "a"', 'emails[type eq "a"][x eq "b"]', 'emails[type eq "a" and x[y eq "b"]]', 'userName eq "unterminated',
    'urn:unknown:schema:x eq "a"', 'not userName eq "a"', 'userName eq "a" #', 'a.b.c eq "x"', 'x eq 01']) {
    t.throws(() => parseFilter(bad), scimType('invalidFilter'), JSON.stringify(bad));
  }
  t.throws(() => parseFilter(`title eq "${'x'.repeat(2000)}"`), scimType('invalidFilter'), 'too long');
  try { parseFilter('userName eq'); } catch (err) {
    t.ok(err instanceof ScimError, 'a ScimError');
    t.match((err as Error).message, /Expected a value .* at position 12/, 'says where');
  }
});
