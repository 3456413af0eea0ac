// The third-party SCIM validator scim2-tester (PyPI, run through the scim2-cli `scim2 test`)
// against this service on a loopback port: scripts/scim-validate.ts starts it with a
// throw-away database, an Enterprise organization and a SCIM token made through the API.
// Skipped, saying why, where the CLI is not installed (SCIM2_CLI or `scim2` on PATH).
import t from 'tap';
import { serviceUrls, TEST_SECRETS } from '../../helper.ts';
import { findScimCli, validateScim } from '../../../scripts/scim-validate.ts';

const cli = await findScimCli();
t.test('scim2-tester: every check passes', {
  skip: cli ? false : 'the scim2 CLI is not installed (npm run services -- up installs it into .data/venv; see .data/logs/scim2-install.log)',
}, async (t) => {
  const { mongoUri, redisUrl } = serviceUrls();
  const figures = await validateScim(cli!, { ...process.env, MONGODB_URI: mongoUri, REDIS_URL: redisUrl, ...TEST_SECRETS });
  t.comment(`scim2-tester: ${figures.run} checks run, ${figures.passed} passed, ${figures.failed} failed`);
  t.ok(figures.run >= 100, `the validator ran its checks (${figures.run})`);
  t.equal(figures.failed, 0, figures.failures.join('\n') || 'no failures');
});
