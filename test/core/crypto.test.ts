// Password hashes: production cost unless the test suite lowers it for its own process, and a
// hash made at either cost verifies (the hash string carries its parameters).
// This file must not import test/helper.ts, which lowers the cost.
import t from 'tap';
import { hashPassword, lowerPasswordHashCostForTests, verifyPassword } from '../../core/crypto.ts';

t.test('new hashes use N=2^15 by default; a lowered cost is read back from the hash', async (t) => {
  const strong = await hashPassword('correct horse');
  t.match(strong, /^scrypt\$32768\$8\$1\$/, 'production cost');
  t.ok(await verifyPassword('correct horse', strong));
  t.notOk(await verifyPassword('wrong horse', strong));
  lowerPasswordHashCostForTests();
  const cheap = await hashPassword('correct horse');
  t.match(cheap, /^scrypt\$1024\$8\$1\$/, 'the test suite\'s cost');
  t.ok(await verifyPassword('correct horse', cheap));
  t.ok(await verifyPassword('correct horse', strong), 'a production hash still verifies at its own cost');
});
