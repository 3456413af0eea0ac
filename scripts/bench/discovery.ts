// `npm run bench -- discovery`: Cloud Discovery's account read (runner-agent/src/engine/discover.ts:
// list modes + the drift readers, every supported type, 4 regions, concurrency 8, adaptive
// retries) against a private moto holding ~1,000 and then ~10,000 resources. Each instance
// comes with its root EBS volume, so N instances per region give 2N resources there.
// Figures: wall time, SDK calls, peak RSS and heap growth, and how each grows from 1k to 10k.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { startMoto } from './private-moto.ts';
import { discoverAccount } from '../../runner-agent/src/engine/discovery.ts';
import { fmt, table } from './lib.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-2', 'us-west-2'];
const CREDS = { accessKeyId: 'testing', secretAccessKey: 'testing', region: 'us-east-1' };

async function seed(endpoint: string, perRegion: number) {
  for (const region of REGIONS) {
    const ec2 = new EC2Client({ endpoint, region, credentials: CREDS });
    for (let left = perRegion; left > 0; left -= 500) {
      const n = Math.min(500, left);
      await ec2.send(new RunInstancesCommand({ ImageId: 'ami-12c6146b', InstanceType: 't3.micro', MinCount: n, MaxCount: n }));
    }
    ec2.destroy();
  }
}

async function measure(endpoint: string) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 25);
  const t0 = performance.now();
  const out = await discoverAccount({ credentials: CREDS, endpoint, regions: REGIONS, concurrency: 8 });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return {
    resources: out.resources.length, seconds, sdkCalls: out.stats.sdkCalls, byService: out.stats.sdkCallsByService,
    peakRssMb: peakRss / 2 ** 20, heapGrowthMb: (peakHeap - base.heapUsed) / 2 ** 20,
  };
}

const moto = await startMoto(REPO, DATA, 'moto-bench-discovery.log', log);
try {
  log('seeding ~1,000 resources over 4 regions');
  await seed(moto.endpoint, 125);
  const small = await measure(moto.endpoint);
  log(`1k: ${small.resources} resources in ${fmt(small.seconds)} s`);
  log('seeding up to ~10,000 resources');
  await seed(moto.endpoint, 1125);
  const large = await measure(moto.endpoint);
  const rows = [small, large].map((r) => [r.resources, r.seconds, r.sdkCalls, r.peakRssMb, r.heapGrowthMb]);
  console.log([
    `Cloud Discovery benchmark: every supported type (${REGIONS.length} regions), concurrency 8, adaptive retries, private moto, node ${process.version}`,
    table(['resources', 'seconds', 'SDK calls', 'peak RSS MB', 'heap growth MB'], rows),
    `from ${small.resources} to ${large.resources} resources (${fmt(large.resources / small.resources)}x): wall time ${fmt(large.seconds / small.seconds)}x, `
      + `SDK calls ${fmt(large.sdkCalls / small.sdkCalls)}x, peak RSS ${fmt(large.peakRssMb / small.peakRssMb)}x`,
    `SDK calls by service at ${large.resources}: ${JSON.stringify(large.byService)}`,
  ].join('\n'));
} finally {
  moto.stop();
}
