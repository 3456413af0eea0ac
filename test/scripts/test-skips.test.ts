// scripts/test-skips.ts: the skipped tests of a run are read from tap's per-file TAP output at any
// depth, with their reasons, and only reasons listed as environment gaps are allowed.
import t from 'tap';
import { allowedPatterns, skipsOf } from '../../scripts/test-skips.ts';

const TAP = `TAP version 14
# Subtest: outer
    # Subtest: inner
        ok 1 - runs
        ok 2 - a real refresh-only plan of a google network against the fake API # SKIP no google provider mirror at /opt/tf-plugins
        1..2
    ok 1 - inner
    ok 2 - access denied by the cloud # SKIP no moto_server executable (looked at /x and PATH)
    ok 3 - later # TODO not written yet
    1..3
ok 1 - outer
ok 2 - a plain skip # SKIP
1..2
`;

t.test('skips at every depth, with their reasons', async (t) => {
  const found = skipsOf('test/x.test.ts', TAP);
  t.same(found.map((s) => [s.kind, s.name, s.reason]), [
    ['SKIP', 'a real refresh-only plan of a google network against the fake API', 'no google provider mirror at /opt/tf-plugins'],
    ['SKIP', 'access denied by the cloud', 'no moto_server executable (looked at /x and PATH)'],
    ['TODO', 'later', 'not written yet'],
    ['SKIP', 'a plain skip', ''],
  ]);
  t.same(skipsOf('f', '1..0 # SKIP no postgres\n').map((s) => s.reason), ['no postgres'], 'a whole file skipped');
  t.same(skipsOf('f', 'ok 1 - named skip in words # time=3ms\n'), [], 'a passing test whose name says skip is no skip');
});

t.test('only listed environment gaps are allowed, each with why', async (t) => {
  const allowed = allowedPatterns();
  t.ok(allowed.length > 0 && allowed.every((a) => a.why.length > 40), 'every entry says why');
  const ok = (reason: string) => allowed.some((a) => a.reason.test(reason));
  t.ok(ok('no google provider mirror at /opt/tf-plugins'), 'the missing google provider mirror is a known gap');
  t.notOk(ok('no moto_server executable (looked at /x and PATH)'), 'a missing moto is not: npm test installs it');
  t.notOk(ok('no FerretDB PostgreSQL URL in services.json'), 'nor a missing service');
  t.notOk(ok(''), 'nor a skip without a reason');
});
