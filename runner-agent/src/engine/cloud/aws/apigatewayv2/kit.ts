// API Gateway v2 (HTTP and WebSocket APIs) lists each kind of child of an API in one paged call
// (GetStages, GetRoutes, ...), so every child type reads the same way: one list per API and
// kind, memoised for the scan, each instance found in it by id. An API that is gone answers
// NotFoundException: all its children are gone with it.
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { AwsContext } from '../context.ts';
import { answer, byRegion, once, str, unlessAbsent, type Answer, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError } from '../replay/kit.ts';
import { isObject } from '../../../values.ts';
import type { CompareSpec } from '../../../diff.ts';

export const NOT_FOUND = ['NotFoundException'];
const notFound = (what: string) => new FakeError('NotFoundException', `Invalid ${what} identifier specified`, 404);

/** One page of a v2 list answer. */
export interface Page<T> { Items?: T[]; NextToken?: string }

/** Every item of a paged v2 list call; undefined when the parent is gone. */
export async function listAll<T>(ctx: AwsContext, call: (token?: string) => Promise<Page<T>>): Promise<T[] | undefined> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await unlessAbsent(call(token), NOT_FOUND);
    if (!page) return undefined;
    items.push(...(page.Items ?? []));
    token = page.NextToken;
  } while (token);
  return items;
}

/** Whether the fake's world holds the API `apiId` (itself, or a child that names it). */
export function fakeApiExists(world: FakeWorld, apiId: string, childTypes: string[]): boolean {
  if (attrsOf(world, 'aws_apigatewayv2_api').some((a) => str(a.id) === apiId)) return true;
  return childTypes.some((t) => attrsOf(world, t).some((a) => str(a.api_id) === apiId));
}

export const CHILD_TYPES = [
  'aws_apigatewayv2_stage', 'aws_apigatewayv2_route', 'aws_apigatewayv2_integration', 'aws_apigatewayv2_deployment',
  'aws_apigatewayv2_authorizer', 'aws_apigatewayv2_api_mapping',
];

export interface ChildKind<T> {
  type: string;
  /** The SDK operation schema of the list call, for the replay fake. */
  op: unknown;
  list(ctx: AwsContext, region: string, apiId: string, token?: string): Promise<Page<T>>;
  /** The id the state keeps for one listed item. */
  idOf(item: T): string | undefined;
  live(item: T, state: Record<string, unknown>): LiveAttributes;
  /** The item the fake lists for one state instance (the same mapping, the other way). */
  fake(attrs: Record<string, unknown>): T;
  spec?: CompareSpec;
}

/** A reader for one kind of API child (stage, route, ...), with the fake's answer to its list call. */
export function childReader<T>(kind: ChildKind<T>): TypeReader {
  const fakeAnswer: Answer = answer<{ ApiId: string }>('apigatewayv2', kind.op, (input, world: FakeWorld) => {
    if (!fakeApiExists(world, input.ApiId, CHILD_TYPES)) throw notFound('API');
    return { Items: attrsOf(world, kind.type).filter((a) => str(a.api_id) === input.ApiId).map(kind.fake) };
  });
  return {
    spec: kind.spec ?? {},
    answers: [fakeAnswer],
    async read(items, ctx) {
      const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
      for (const [region, group] of byRegion(items)) {
        await Promise.all(group.map(async ({ item, index }) => {
          const listed = await childrenOf(ctx, kind, region, item.instance);
          const found = listed?.find((x) => kind.idOf(x) === str(item.instance.attributes.id));
          out[index] = found ? kind.live(found, item.instance.attributes) : null;
        }));
      }
      return out;
    },
  };
}

function childrenOf<T>(ctx: AwsContext, kind: ChildKind<T>, region: string, instance: StateInstance): Promise<T[] | undefined> {
  const apiId = str(instance.attributes.api_id);
  return once(ctx, `apigatewayv2:${region}:${kind.type}:${apiId}`, () => listAll(ctx, (token) => kind.list(ctx, region, apiId, token)));
}

/** A state map as the API answers it: string values, undefined for none. */
export const strMap = (v: unknown): Record<string, string> | undefined =>
  (isObject(v) && Object.keys(v).length ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, str(x)])) : undefined);

/** A string map, {} for none (the provider writes empty maps for unset map attributes). */
export const stringMap = (v: Record<string, string> | undefined): Record<string, string> => ({ ...(v ?? {}) });
