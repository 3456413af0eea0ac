// What the Cloud Discovery modules share: the names of its jobs, the account a scan reads when
// none is named, and what the service is given (its store, the services it reads, the engine
// settings and, in tests, the engine's readers replaced).
import type { CredentialService } from '../credentials/service.ts';
import type { ProjectService } from '../projects/service.ts';
import type { ScanService } from '../scans/service.ts';
import type {
  AwsCredentials, DiscoverInput, DiscoverOutcome, RestDiscoverInput, RestProvider,
} from '../../runner-agent/src/engine/discovery.ts';
import type { DiscoveryStore } from './store.ts';

export const DISCOVERY_JOB = 'discovery.scan';
export const DISCOVERY_TIMEOUT_JOB = 'discovery.timeout';
export const ORG_ACCOUNT = 'org';

export interface DiscoveryDeps {
  store: DiscoveryStore;
  /** apiBudget: the cloud API budget discovery draws from too (the scans' Redis buckets and the organization's rates). */
  scans: Pick<ScanService, 'managedBy' | 'managedIds'> & Partial<Pick<ScanService, 'apiBudget'>>;
  credentials?: Pick<CredentialService, 'values'>;
  projects?: Pick<ProjectService, 'find' | 'credentialValues'>;
  endpoint: string | undefined;
  /** cloud_b / cloud_c endpoint overrides and extra CA (DRIFT_CLOUD_B/C_ENDPOINT, DRIFT_CLOUD_CA_FILE). */
  restEndpoints?: Partial<Record<RestProvider, string>>;
  ca?: string;
  timeoutMinutes: number;
  concurrency: number;
  /** Injected in tests (throttling proxies); discoverAccount otherwise. */
  discover?: (input: DiscoverInput) => Promise<DiscoverOutcome>;
  regions?: (credentials: AwsCredentials, endpoint?: string) => Promise<string[]>;
  discoverRest?: (input: RestDiscoverInput) => Promise<DiscoverOutcome>;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round2 = (n: number) => Math.round(n * 100) / 100;
