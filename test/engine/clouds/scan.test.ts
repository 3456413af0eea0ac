// detectDrift on cloud_b and cloud_c end to end: a repository folder with its state, the stored
// credentials' shapes, tokens from the fake identity endpoints, the readers against the fake
// APIs. Scope: Azure from the ARM id; Google from attributes, the provider block's variable
// (tfvars), or the credentials' project; unknown scope is counted, never reported deleted.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { detectDrift, type ScanInput } from '../../../runner-agent/src/engine/index.ts';
import { serviceAccountKey } from '../cloud-auth-fakes.ts';
import { fakeAzure, fakeGoogle } from './fakes.ts';
import { changed, instance } from './harness.ts';

const SUB = '11111111-2222-3333-4444-555555555555';
const APP = { clientId: 'app-1', secret: 'very-secret-value-1' };
const AZ_CREDS = { subscriptionId: SUB, tenantId: 'tenant-1', clientId: APP.clientId, clientSecret: APP.secret };

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'drift-rest-scan-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** A v4 state holding `instances` under `provider`. */
function stateOf(instances: ReturnType<typeof instance>[], provider: string): string {
  const resources = instances.map((i) => ({ mode: 'managed', type: i.type, name: i.name, provider, instances: [{ schema_version: 0, attributes: i.attributes, sensitive_attributes: [] }] }));
  return JSON.stringify({ version: 4, terraform_version: '1.9.8', serial: 1, lineage: 'l', outputs: {}, resources });
}

const rg = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_resource_group', name, {
  id: `/subscriptions/${SUB}/resourceGroups/${name}`, name, location: 'westeurope', tags: { team: 'a' }, managed_by: '', ...attrs,
});

t.test('cloud_b: a state read back clean; a live change and a deletion reported with the subscription and location', async (t) => {
  const a = rg('rg-a');
  const b = rg('rg-b');
  const dir = folder({ 'main.tf': 'provider "azurerm" {\n  features {}\n}\n', 'terraform.tfstate': stateOf([a, b], 'provider["registry.terraform.io/hashicorp/azurerm"]') });
  const input = (endpoint: string, ca?: string): ScanInput => ({ source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_b', credentials: AZ_CREDS, endpoint, ...(ca ? { ca } : {}) });

  const clean = await fakeAzure([a, b], APP);
  t.teardown(() => clean.close());
  const out = await detectDrift(input(clean.endpoint, clean.ca));
  t.same(out.drifts, [], 'no drift');
  t.equal(out.resourcesScanned, 2);
  t.equal(clean.tokensIssued(), 1, 'one token for the scan');
  t.same(out.stats.regionSources, { id: 2 });
  t.match(out.inventory.find((i) => i.address === 'azurerm_resource_group.rg-a'), { resourceId: `/subscriptions/${SUB}/resourcegroups/rg-a`, account: SUB, region: 'westeurope' });

  const live = await fakeAzure([changed(a, { tags: { team: 'b' } })], APP);
  t.teardown(() => live.close());
  const found = await detectDrift(input(live.endpoint, live.ca));
  const by = Object.fromEntries(found.drifts.map((d) => [d.resourceAddress, d]));
  t.match(by['azurerm_resource_group.rg-a'], { provider: 'cloud_b', changeType: 'changed', severity: 'low', account: SUB, location: 'westeurope', declaredIn: null });
  t.match(by['azurerm_resource_group.rg-b'], { provider: 'cloud_b', changeType: 'deleted', severity: 'high' });

  await t.rejects(detectDrift(input(live.endpoint)), { code: 'timeout', message: /could not reach its token endpoint|certificate/ }, 'the fake\'s certificate is not trusted without the CA');
  const refused = await detectDrift({ ...input(live.endpoint, live.ca), credentials: { ...AZ_CREDS, clientSecret: 'wrong-secret' } }).catch((e: Error) => e);
  t.match(refused, { code: 'access_denied', message: /service principal app-1 in tenant tenant-1: AADSTS7000215/ });
  t.notMatch(JSON.stringify({ m: (refused as Error).message }), /wrong-secret/, 'the secret is not in the message');
  await t.rejects(detectDrift({ ...input(live.endpoint, live.ca), credentials: { subscriptionId: SUB } }), { code: 'no_credentials' });
});

t.test('cloud_b: a refused read names the role to grant', async (t) => {
  const a = rg('rg-a');
  const fake = await fakeAzure([a], APP);
  t.teardown(() => fake.close());
  fake.deny(/resourceGroups/i);
  const dir = folder({ 'main.tf': '', 'terraform.tfstate': stateOf([a], 'provider["registry.terraform.io/hashicorp/azurerm"]') });
  await t.rejects(detectDrift({ source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_b', credentials: AZ_CREDS, endpoint: fake.endpoint, ca: fake.ca }),
    { code: 'access_denied', message: /HTTP 403 AuthorizationFailed.*Reader role on the subscription/ });
});

const net = (name: string, attrs: Record<string, unknown>) => instance('google_compute_network', name, {
  name, description: '', auto_create_subnetworks: false, routing_mode: 'REGIONAL', mtu: 1460, ...attrs,
});

t.test('cloud_c: project from attributes, the provider block (tfvars) or the credentials; unknown scope counted', async (t) => {
  const { key, publicKey } = serviceAccountKey();
  const own = net('own', { project: 'p-own', id: 'projects/p-own/global/networks/own' });
  const viaProvider = net('via-provider', {});
  const fake = await fakeGoogle([own, { ...viaProvider, attributes: { ...viaProvider.attributes, project: 'p-var' } }], { [key.client_email]: publicKey });
  t.teardown(() => fake.close());
  const tf = 'variable "project" {}\nprovider "google" {\n  project = var.project\n}\n';
  const dir = folder({ 'main.tf': tf, 'terraform.tfvars': 'project = "p-var"\n', 'terraform.tfstate': stateOf([own, viaProvider], 'provider["registry.terraform.io/hashicorp/google"]') });
  const input: ScanInput = { source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_c', credentials: { projectId: 'p-cred', serviceAccountKey: key }, endpoint: fake.endpoint };
  const out = await detectDrift(input);
  t.same(out.drifts, []);
  t.same(out.stats.regionSources, { attribute: 1, variable: 1 });
  t.equal(fake.tokensIssued(), 1);
  t.same(out.stats.sdkCallsByService, { compute: 2 });

  // Without the tfvars, the credentials' project is the last resort: read there, not found, then it is a deletion there.
  const bare = folder({ 'main.tf': '', 'terraform.tfstate': stateOf([viaProvider], 'provider["registry.terraform.io/hashicorp/google"]') });
  const cred = await detectDrift({ ...input, source: { kind: 'path', path: bare } });
  t.same(cred.stats.regionSources, { credentials: 1 });
  t.match(cred.drifts, [{ resourceAddress: 'google_compute_network.via-provider', changeType: 'deleted', account: 'p-cred', provider: 'cloud_c' }]);

  // A key without project_id and credentials without projectId: no project at all, nothing guessed.
  const { project_id: _p, ...noProject } = key;
  const unknown = await detectDrift({ ...input, source: { kind: 'path', path: bare }, credentials: { serviceAccountKey: noProject } });
  t.same(unknown.drifts, []);
  t.same(unknown.stats.regionUnknown, { google_compute_network: 1 });
  t.equal(unknown.resourcesScanned, 0);

  const live = await fakeGoogle([changed(own, { routing_mode: 'GLOBAL' })], { [key.client_email]: publicKey });
  t.teardown(() => live.close());
  const drift = await detectDrift({ ...input, source: { kind: 'path', path: folder({ 'main.tf': '', 'terraform.tfstate': stateOf([own], 'provider["registry.terraform.io/hashicorp/google-beta"]') }) }, endpoint: live.endpoint });
  t.match(drift.drifts, [{ resourceAddress: 'google_compute_network.own', diff: [{ attribute: 'routing_mode', before: 'REGIONAL', after: 'GLOBAL' }], account: 'p-own', provider: 'cloud_c' }]);
});

t.test('cloud_c: throttling is waited out; a refused key fails with what to check', async (t) => {
  const { key, publicKey } = serviceAccountKey();
  const own = net('own', { project: 'p1', id: 'projects/p1/global/networks/own' });
  const fake = await fakeGoogle([own], { [key.client_email]: publicKey });
  t.teardown(() => fake.close());
  fake.throttle(1, 0, { status: 503 });
  const dir = folder({ 'main.tf': '', 'terraform.tfstate': stateOf([own], 'provider["registry.terraform.io/hashicorp/google"]') });
  const input: ScanInput = { source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_c', credentials: { projectId: 'p1', serviceAccountKey: key }, endpoint: fake.endpoint };
  const out = await detectDrift(input);
  t.same(out.drifts, []);
  t.equal(out.stats.sdkCalls, 2, 'the 503 and its retry');
  const other = serviceAccountKey();
  await t.rejects(detectDrift({ ...input, credentials: { projectId: 'p1', serviceAccountKey: other.key } }), { code: 'access_denied', message: /check the key is valid/ });
});

t.test('remote states: backend "gcs" and backend "azurerm" read with the scan\'s credentials', async (t) => {
  const { key, publicKey } = serviceAccountKey();
  const own = net('own', { project: 'p1', id: 'projects/p1/global/networks/own' });
  const gcsState = JSON.parse(stateOf([own], 'provider["registry.terraform.io/hashicorp/google"]'));
  const seen: string[] = [];
  const google = await fakeGoogle([own], { [key.client_email]: publicKey }, { routes: [{
    method: 'GET', service: 'storage', path: '/storage/v1/b/:bucket/o/:object',
    answer: (req) => { seen.push(`${req.params.bucket}/${req.params.object}?${req.query.get('alt')}`); return req.params.object === 'envs/prod/default.tfstate' ? gcsState : undefined; },
  }] });
  t.teardown(() => google.close());
  const gcsRepo = (prefix: string) => folder({ 'main.tf': `terraform {\n  backend "gcs" {\n    bucket = "tf-state"\n    prefix = "${prefix}"\n  }\n}\n` });
  const gInput = (dir: string): ScanInput => ({ source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_c', credentials: { projectId: 'p1', serviceAccountKey: key }, endpoint: google.endpoint });
  const out = await detectDrift(gInput(gcsRepo('envs/prod')));
  t.match(out, { drifts: [], resourcesScanned: 1, stats: { roots: [{ state: 'gs://tf-state/envs/prod/default.tfstate (backend "gcs")' }] } });
  t.same(seen, ['tf-state/envs/prod/default.tfstate?media'], 'the object read as media');
  await t.rejects(detectDrift(gInput(gcsRepo('envs/none'))), { code: 'state_not_found', message: 'No state object at gs://tf-state/envs/none/default.tfstate (backend "gcs")' });

  const a = rg('rg-a');
  const blobState = JSON.parse(stateOf([a], 'provider["registry.terraform.io/hashicorp/azurerm"]'));
  const blobSeen: string[] = [];
  const azure = await fakeAzure([a], APP, { routes: [{
    method: 'GET', service: 'blob', path: '/:account/:container/*blob',
    answer: (req) => { blobSeen.push(`${req.params.account} ${req.params.container} ${req.params.blob}`); return req.params.blob === '/prod.terraform.tfstate' ? blobState : undefined; },
  }] });
  t.teardown(() => azure.close());
  const azRepo = folder({ 'main.tf': 'terraform {\n  backend "azurerm" {\n    resource_group_name = "tf"\n    storage_account_name = "tfstate123"\n    container_name = "tfstate"\n    key = "prod.terraform.tfstate"\n  }\n}\n' });
  const azOut = await detectDrift({ source: { kind: 'path', path: azRepo }, iacPaths: [], provider: 'cloud_b', credentials: AZ_CREDS, endpoint: azure.endpoint, ca: azure.ca });
  t.match(azOut, { drifts: [], resourcesScanned: 1, stats: { roots: [{ state: 'azblob://tfstate123/tfstate/prod.terraform.tfstate (backend "azurerm")' }] } });
  t.same(blobSeen, ['tfstate123 tfstate /prod.terraform.tfstate']);
  t.equal(azure.tokensIssued(), 2, 'one ARM token and one Storage token');
  azure.deny(/^\/blob\//);
  await t.rejects(detectDrift({ source: { kind: 'path', path: azRepo }, iacPaths: [], provider: 'cloud_b', credentials: AZ_CREDS, endpoint: azure.endpoint, ca: azure.ca }),
    { code: 'access_denied', message: /Storage Blob Data Reader role on storage account tfstate123/ });
  const viaPath = await detectDrift({ source: { kind: 'path', path: folder({ 'main.tf': '' }) }, iacPaths: [], provider: 'cloud_c', statePath: 'gs://tf-state/envs/prod/default.tfstate', credentials: { projectId: 'p1', serviceAccountKey: key }, endpoint: google.endpoint });
  t.equal(viaPath.resourcesScanned, 1, 'a gs:// state path');
});
