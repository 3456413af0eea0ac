// core/ferret-sql.ts decides which filters PostgreSQL answers; anything outside its exact subset
// must give null (the driver reads it), and core/ferret-pjson.ts must read FerretDB's stored
// documents back as the driver does. The answers themselves are compared with the driver's in
// test/plugins/drifts/pushdown.test.ts and test/plugins/sso-scim/scim-pages.test.ts.
import t from 'tap';
import { ObjectId } from 'mongodb';
import { Args, orderOf, whereOf } from '../../core/ferret-sql.ts';
import { fromPjson } from '../../core/ferret-pjson.ts';

const where = (f: Record<string, unknown>) => whereOf(f, new Args());

t.test('filters outside the subset are not pushed', async (t) => {
  t.equal(where({ 'name.familyName': { $regex: '^Sm.th$', $options: 'i' } }), null, 'a regex that is not an escaped literal');
  t.equal(where({ a: { $regex: 'x', $options: 'im' } }), null, 'other regex options');
  t.equal(where({ a: { $regex: '^Müller$', $options: 'i' } }), null, 'a non-ASCII pattern (case folding differs)');
  t.equal(where({ a: { $regex: /x/ } }), null, 'a RegExp object');
  t.equal(where({ 'a.b': { $nin: [null] } }), null, 'null on a dotted path');
  t.equal(where({ 'emails.0': { $exists: true } }), null, 'an array position');
  t.equal(where({ createdAt: { $gte: new Date() } }), null, 'a date');
  t.equal(where({ a: { $gte: false, $lte: true } }), null, 'a boolean range of two values');
  t.equal(where({ $or: [] }), null, 'an empty $or');
  t.equal(where({ a: { $elemMatch: { b: 1 } } }), null, 'an operator outside the subset');
  t.equal(orderOf({ 'a.b': 1 }), null, 'a sort on a dotted path');
});

t.test('filters inside the subset are pushed', async (t) => {
  const a = new Args();
  const sql = whereOf({ orgId: 'o', 'name.familyName': { $regex: '^Smith\\.Jr$', $options: 'i' }, $nor: [{ active: { $gte: false, $lte: false } }] }, a);
  t.ok(sql, 'equality, a literal regex on a dotted path, and a negated boolean equality');
  t.match(String(sql), /NOT coalesce\(/, 'the negation treats a missing field as not matching the inner test');
  t.ok(a.values.includes('lax $."name"."familyName" ? (@ like_regex "^Smith\\\\.Jr\\\\n?$" flag "i")'), 'the SQL/JSON path of the regex, `$` also before a final newline', { values: a.values });
  t.equal(where({}), 'true');
});

t.test("FerretDB's stored documents read back as the driver reads them", async (t) => {
  const stored = {
    $s: { $k: ['_id', 'at', 'o', 'oid', 'n', 'nu', 'arr'], p: {
      _id: { t: 'string' }, at: { t: 'date' }, oid: { t: 'objectId' }, n: { t: 'int' }, nu: { t: 'null' },
      o: { t: 'object', $s: { $k: ['x', 'y'], p: { x: { t: 'date' }, y: { t: 'array', i: [{ t: 'int' }, { t: 'string' }, { t: 'object', $s: { $k: ['z'], p: { z: { t: 'bool' } } } }] } } } },
      arr: { t: 'array', i: [] },
    } },
    _id: 'a', at: 5, o: { x: 7, y: [1, 'a', { z: true }] }, oid: '64b7f0000000000000000000', n: 3, nu: null, arr: [],
  };
  t.same(fromPjson(stored), { _id: 'a', at: new Date(5), o: { x: new Date(7), y: [1, 'a', { z: true }] }, oid: new ObjectId('64b7f0000000000000000000'), n: 3, nu: null, arr: [] });
  t.same(Object.keys(fromPjson(stored)), ['_id', 'at', 'o', 'oid', 'n', 'nu', 'arr'], "in the stored key order, without FerretDB's schema");
  t.throws(() => fromPjson({ $s: { $k: ['b'], p: { b: { t: 'binData' } } }, b: 'AA==' }), /binData/, 'an unknown type is an error (the read falls back), never a guess');
});
