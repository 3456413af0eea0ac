// cloud_b and cloud_c through the service: credentials stored by their routes, a drift scan of a
// repository config run by the built-in executor against the fake ARM / Google APIs (the
// endpoint overrides and the CA file from configuration), then Cloud Discovery of the same
// subscription or project: managed (the scan's inventory holds its id) or orphan.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { serviceAccountKey } from '../../engine/cloud-auth-fakes.ts';
import { fakeAzure, fakeGoogle } from '../../engine/clouds/fakes.ts';
import { instance } from '../../engine/clouds/harness.ts';

const SUB = 'aaaaaaaa-1111-2222-3333-444444444444';
const APP = { clientId: 'drift-app', secret: 'the-client-secret-value' };
const rg = (name: string) => instance('azurerm_resource_group', name, { id: `/subscriptions/${SUB}/resourceGroups/${name}`, name, location: 'westeurope', tags: {}, managed_by: '' });
const net = (name: string, project = 'proj-1') => instance('google_compute_network', name, {
  id: `projects/${project}/global/networks/${name}`, name, project, description: '', auto_create_subnetworks: false, routing_mode: 'REGIONAL', mtu: 1460,
  self_link: `https://www.googleapis.com/compute/v1/projects/${project}/global/networks/${name}`,
});
const { key, publicKey } = serviceAccountKey();

// The clouds hold two resources each; the repository's state manages one of them.
const az = await fakeAzure([rg('managed-rg'), rg('orphan-rg')], APP);
const gc = await fakeGoogle([net('managed-net'), net('orphan-net')], { [key.client_email]: publicKey });
const dir = mkdtempSync(join(tmpdir(), 'drift-clouds-'));
t.teardown(async () => { await az.close(); await gc.close(); rmSync(dir, { recursive: true, force: true }); });
writeFileSync(join(dir, 'ca.pem'), az.ca!);

const { app, ctx, services } = await buildTestApp(t, {
  env: { DRIFT_CLOUD_B_ENDPOINT: az.endpoint, DRIFT_CLOUD_C_ENDPOINT: gc.endpoint, DRIFT_CLOUD_CA_FILE: join(dir, 'ca.pem'), EXECUTOR_LOCAL_SOURCES: true },
});
const owner = await register(app);
await ctx.tenancy.setPlan(owner.orgId, 'team');
const api = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) => {
  const res = await app.inject({ method, url, headers: bearer(owner.token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() };
};

function repo(name: string, files: Record<string, unknown>): string {
  const root = join(dir, name);
  rmSync(root, { recursive: true, force: true });
  for (const [f, text] of Object.entries(files)) {
    const file = join(root, f);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text));
  }
  return root;
}
const stateOf = (i: ReturnType<typeof instance>, provider: string) => ({
  version: 4, serial: 1, lineage: 'l', resources: [{ mode: 'managed', type: i.type, name: i.name, provider, instances: [{ attributes: i.attributes }] }],
});

async function scanConfig(t: Test, provider: 'cloud_b' | 'cloud_c', root: string) {
  const config = (await api('POST', '/api/repo-configs', { repositoryName: `acme/${provider}-${Date.now()}`, branch: 'main', provider, repositoryUrl: root })).body.data;
  const scan = (await api('POST', `/api/scans/trigger/${config._id}`)).body.data;
  t.equal(await services.executor!.execute(owner.orgId, scan._id), 'ran', `${provider}: the executor ran the scan`);
  return (await api('GET', `/api/scans/${scan._id}`)).body.data;
}

t.test('cloud_b: credentials from their route, a drift scan, then discovery of the subscription', async (t) => {
  const missing = await api('POST', '/api/cloud-discovery/scan', { cloudAccountId: 'org:cloud_b' });
  t.match(missing, { status: 400, body: { error: { message: /No cloud_b credentials .* POST \/api\/auth\/cloud-b-credentials/ } } }, 'no credentials: 400 saying what to set');
  t.equal((await api('POST', '/api/auth/cloud-b-credentials', { subscriptionId: SUB, tenantId: 'tenant-x', clientId: APP.clientId, clientSecret: APP.secret })).status, 200);

  const root = repo('azure', { 'main.tf': 'provider "azurerm" {\n  features {}\n}\n', 'terraform.tfstate': stateOf(rg('managed-rg'), 'provider["registry.terraform.io/hashicorp/azurerm"]') });
  const scan = await scanConfig(t, 'cloud_b', root);
  t.match(scan, { status: 'completed', driftCount: 0 }, 'the state matches the subscription');

  const started = await api('POST', '/api/cloud-discovery/scan', { cloudAccountId: 'org:cloud_b' });
  t.match(started, { status: 202, body: { status: 'running', cloudAccountId: 'org:cloud_b', regions: ['eastus', 'westeurope'] } }, "regions default to the subscription's locations");
  t.ok(await services.discovery!.run(owner.orgId, started.body.scanId));
  const done = (await api('GET', `/api/cloud-discovery/scans/${started.body.scanId}`)).body;
  t.match(done, { status: 'completed', resourcesFound: 2, orphansFound: 1, error: null });
  const rows = await ctx.db.db.collection('discovered_resources').find({ orgId: owner.orgId, cloudAccountId: 'org:cloud_b' }).toArray() as unknown as { resourceId: string; iacStatus: string; resourceType: string; service: string; region: string }[];
  const by = Object.fromEntries(rows.map((r) => [r.resourceId.split('/').pop(), r]));
  t.match(by['managed-rg'], { iacStatus: 'managed', resourceType: 'azurerm_resource_group', region: 'westeurope' });
  t.match(by['orphan-rg'], { iacStatus: 'orphan' });
});

t.test('cloud_c: credentials from their route, a drift scan, then discovery of the project', async (t) => {
  t.equal((await api('POST', '/api/auth/cloud-c-credentials', { projectId: 'proj-1', serviceAccountKey: key })).status, 200);
  const root = repo('google', { 'main.tf': 'provider "google" {}\n', 'terraform.tfstate': stateOf(net('managed-net'), 'provider["registry.terraform.io/hashicorp/google"]') });
  const scan = await scanConfig(t, 'cloud_c', root);
  t.match(scan, { status: 'completed', driftCount: 0 });

  const started = await api('POST', '/api/cloud-discovery/scan', { cloudAccountId: 'org:cloud_c', regions: ['us-central1'], resourceTypes: ['google_compute_network'] });
  t.match(started, { status: 202, body: { cloudAccountId: 'org:cloud_c', regions: ['us-central1'] } });
  t.ok(await services.discovery!.run(owner.orgId, started.body.scanId));
  t.match((await api('GET', `/api/cloud-discovery/scans/${started.body.scanId}`)).body, { status: 'completed', resourcesFound: 2, orphansFound: 1 });
  t.match(await api('POST', '/api/cloud-discovery/scan', { cloudAccountId: 'org:cloud_c', resourceTypes: ['aws_instance'] }), { status: 400, body: { error: { message: /Unsupported resourceTypes for cloud_c: aws_instance/ } } });
});
