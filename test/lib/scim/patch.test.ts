// The PATCH engine (RFC 7644 §3.5.2) on a resource's SCIM JSON: add, replace and remove, with and
// without a path, value-filter paths, and the forms identity providers send; every refusal a
// ScimError with the RFC's scimType. The input resource is never changed.
import t from 'tap';
import { applyPatch } from '../../../lib/scim/index.ts';
import { ENT, GROUP, USER, scimType } from './attrs.ts';

const base = () => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id: 'x', userName: 'a@x.test', active: true,
  emails: [{ value: 'a@x.test', type: 'work', primary: true }], name: { givenName: 'A' },
});

t.test('add', async (t) => {
  const r = applyPatch(USER, base(), [{ op: 'add', path: 'emails', value: [{ value: 'b@x.test', type: 'home' }] }]);
  t.equal((r.emails as unknown[]).length, 2, 'a multi-valued add appends');
  const again = applyPatch(USER, r, [{ op: 'add', path: 'emails', value: [{ value: 'b@x.test', type: 'home' }] }]);
  t.equal((again.emails as unknown[]).length, 2, 'adding a value already present changes nothing');
  t.match(applyPatch(USER, base(), [{ op: 'add', path: 'name', value: { familyName: 'B' } }]), { name: { givenName: 'A', familyName: 'B' } }, 'a complex add merges');
  t.match(applyPatch(USER, base(), [{ op: 'add', value: { title: 'Dr', 'name.familyName': 'B' } }]), { title: 'Dr', name: { givenName: 'A', familyName: 'B' } }, 'without a path: an object of attribute paths');
  // RFC 7644 §3.5.2.1's example: adding a member to a group.
  const group = { id: 'g', displayName: 'G', members: [{ value: 'u1' }] };
  t.same(applyPatch(GROUP, group, [{ op: 'add', path: 'members', value: [{ display: 'Babs', value: 'u2' }] }]).members, [{ value: 'u1' }, { display: 'Babs', value: 'u2' }]);
});

t.test('replace', async (t) => {
  const r = applyPatch(USER, base(), [
    { op: 'Replace', value: { active: 'False', 'name.givenName': 'Ada', [`${ENT}:department`]: 'Ops' } },
    { op: 'replace', path: 'emails[type eq "work"].value', value: 'new@x.test' },
  ]);
  t.match(r, { active: false, name: { givenName: 'Ada' }, [ENT]: { department: 'Ops' }, emails: [{ value: 'new@x.test', type: 'work' }] }, 'Entra ID forms');
  t.same(applyPatch(USER, base(), [{ op: 'replace', path: 'emails', value: [{ value: 'z@x.test' }] }]).emails, [{ value: 'z@x.test' }], 'a multi-valued replace replaces all');
  t.match(applyPatch(USER, base(), [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'h@x.test' }]).emails,
    [{ type: 'work' }, { type: 'home', value: 'h@x.test' }], 'no match for `type eq`: the element is created');
  t.same(applyPatch(USER, base(), [{ op: 'replace', path: ENT, value: { department: 'D' } }])[ENT], { department: 'D' }, 'the extension as a whole');
  t.match(applyPatch(USER, base(), [{ op: 'replace', path: 'emails.primary', value: 'false' }]).emails, [{ primary: false }], 'boolean strings coerced');
});

t.test('remove', async (t) => {
  t.notOk('name' in applyPatch(USER, base(), [{ op: 'remove', path: 'name' }]), 'an attribute');
  t.same(applyPatch(USER, base(), [{ op: 'remove', path: 'name.givenName' }]).name, {}, 'a sub-attribute');
  t.same(applyPatch(USER, base(), [{ op: 'remove', path: 'emails[type eq "work"]' }]).emails, [], 'elements by filter');
  t.same(applyPatch(USER, base(), [{ op: 'remove', path: 'emails[type eq "home"]' }]).emails, base().emails, 'no match: nothing to do');
  // RFC 7644 §3.5.2.2: removing one member of a group by a value-filter path.
  const group = { id: 'g', displayName: 'G', members: [{ value: 'u1' }, { value: 'u2' }] };
  t.same(applyPatch(GROUP, group, [{ op: 'remove', path: 'members[value eq "u1"]' }]).members, [{ value: 'u2' }]);
  t.same(applyPatch(GROUP, group, [{ op: 'remove', path: 'members', value: [{ value: 'u2' }] }]).members, [{ value: 'u1' }], 'Entra ID: members by value');
  t.notOk('members' in applyPatch(GROUP, group, [{ op: 'remove', path: 'members' }]), 'all members');
});

t.test('the input is not changed', async (t) => {
  const input = base();
  applyPatch(USER, input, [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'n@x.test' }, { op: 'remove', path: 'name' }]);
  t.same(input, base());
});

t.test('refusals carry the RFC scimType', async (t) => {
  t.throws(() => applyPatch(USER, base(), [{ op: 'replace', path: 'id', value: 'y' }]), scimType('mutability'), 'a read-only attribute');
  t.throws(() => applyPatch(USER, base(), [{ op: 'replace', path: 'phoneNumbers[type eq "work" and value co "1"].value', value: '2' }]), scimType('noTarget'), 'no element matches a complex filter');
  t.throws(() => applyPatch(USER, base(), [{ op: 'remove' }]), scimType('noTarget'), 'remove without a path');
  t.throws(() => applyPatch(USER, base(), [{ op: 'move', path: 'title', value: 'x' }]), scimType('invalidValue'), 'an unknown op');
  t.throws(() => applyPatch(USER, base(), [{ op: 'add', value: 'x' }]), scimType('invalidValue'), 'a pathless add that is no object');
  t.throws(() => applyPatch(USER, base(), [{ op: 'add', path: 'title' }]), scimType('invalidValue'), 'no value');
  t.throws(() => applyPatch(USER, base(), [{ op: 'add', path: 'nope', value: 1 }]), scimType('invalidPath'), 'an unknown attribute');
  t.throws(() => applyPatch(USER, base(), [{ op: 'add', path: 'title[value eq "x"]', value: 1 }]), scimType('invalidPath'), 'a filter on a simple attribute');
});
