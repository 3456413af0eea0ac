// What every Azure or Google Cloud resource-type reader provides (the REST counterpart of
// cloud/aws/reader.ts): how to read the live attributes of a batch of state instances, in the
// Terraform provider's attribute names, how to compare them (diff.ts), and how the fake cloud
// answers the calls it makes from a state (replay, tests): the same mapping, both ways.
import type { CompareSpec } from '../../diff.ts';
import type { LiveAttributes, StateInstance } from '../../types.ts';
import type { RestApi } from './api.ts';

/**
 * Where an instance lives: the Azure subscription (or the root scope its id names) or the Google
 * project, and its location (Azure location, Google region or zone) when known.
 */
export interface Scope {
  account: string;
  location: string | null;
  /** Where `account` came from: `id`, `attribute`, `provider`, `variable`, `credentials`. */
  source: string;
}

export interface RestItem { instance: StateInstance; scope: Scope }

export interface RestReader {
  spec: CompareSpec;
  /**
   * Live attributes for each item, in the same order; null when the resource no longer exists.
   * `state` is every instance of the scan's states (a parent's reader leaves out of its compared
   * children those that their own resources manage, as an NSG's rules).
   */
  read(items: RestItem[], api: RestApi, state?: FakeWorld): Promise<(LiveAttributes | null)[]>;
  /** How the fake cloud answers each call `read` makes, from the state (several readers may share routes). */
  fake: FakeRoute[];
  /** List mode (Cloud Discovery): every resource of the type in a subscription or project, as the reader maps it. */
  list?(api: RestApi, account: string): Promise<Listed[]>;
}

/** A listed resource: the id `terraform import` takes (and the state holds), where it lives, its attributes. */
/**
 * A REST cloud as the comparison loop takes it: its readers by type and how an id names a scope.
 * Here, beside the reader it gathers, so a provider's table (azure/, google/) imports no
 * comparison code (the comparison loop reaches the catalogue, which gathers the providers).
 */
export interface RestCloud {
  readers: Record<string, RestReader>;
  /** The scope the instance's own id or self link names, when it names one. */
  idScope(instance: StateInstance): Scope | undefined;
}

export interface Listed { id: string; location: string | null; attributes: LiveAttributes }

/** A state instance standing for a listed resource, for mappings that look at the instance. */
export const stubInstance = (type: string, id: string): StateInstance => ({ address: `${type}.discovered`, type, name: 'discovered', attributes: { id } });

/** What the fake knows: the state's managed instances, by type. */
export interface FakeWorld { of(type: string): StateInstance[] }

export interface FakeRequest {
  method: string;
  /** The service the request named (the first path segment: `management`, a vault's host...). */
  service: string;
  /** The request's path under the service, e.g. an ARM resource id. */
  path: string;
  /** `:name` segments (and the one `*name` part, as `/a/b/c`) of the route's path, URL-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

export interface FakeRoute {
  /** HEAD answers `fakeHeaders(...)`: the response's headers, no body (Azure Storage's properties). */
  method: 'GET' | 'POST' | 'HEAD';
  /**
   * The service (first path segment under the fake's endpoint): `management` for ARM; `compute`,
   * `storage`... for Google; `*.vault.azure.net` for every host under that suffix (a data plane).
   */
  service: string;
  /**
   * Path under the service's base URL; `:name` matches one segment, one `*name` one or more
   * (an ARM scope); fixed words match case-insensitively, as ARM does.
   */
  path: string;
  /**
   * The answer built from the state: a JSON value, `undefined` for the cloud's 404, or
   * `fakeList(items)` for a list the fake pages (`nextLink` or `nextPageToken` in the cloud's style).
   */
  answer(req: FakeRequest, world: FakeWorld): unknown;
}

export const FAKE_HEADERS = Symbol('fakeHeaders');
export interface FakeHeaders { [FAKE_HEADERS]: true; headers: Record<string, string> }
/** A HEAD answer: these headers, no body. */
export const fakeHeaders = (headers: Record<string, string>): FakeHeaders => ({ [FAKE_HEADERS]: true, headers });
export const isFakeHeaders = (v: unknown): v is FakeHeaders => typeof v === 'object' && v !== null && FAKE_HEADERS in v;

export const FAKE_LIST = Symbol('fakeList');
export interface FakeList { [FAKE_LIST]: true; items: unknown[]; key: string }
/** A list answer: the fake pages `items` under `key` (`value` for ARM, `items` for Google). */
export const fakeList = (items: unknown[], key = 'value'): FakeList => ({ [FAKE_LIST]: true, items, key });
export const isFakeList = (v: unknown): v is FakeList => typeof v === 'object' && v !== null && FAKE_LIST in v;

export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
/** The items' positions by a key (lowercased: ARM ids are case-insensitive), for putting list results back in order. */
export function indexBy<T>(list: T[], keyOf: (x: T) => string | undefined): Map<string, T> {
  const out = new Map<string, T>();
  for (const x of list) { const k = keyOf(x); if (k) out.set(k.toLowerCase(), x); }
  return out;
}
