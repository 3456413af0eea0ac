// What the IAM extras share: one IAM read whose NoSuchEntity means "gone", the fake's not-found
// error, and the groups and users the replay world knows of (from every type that names them).
import { errorName, type AwsContext } from '../context.ts';
import { str, type FakeWorld } from '../reader.ts';
import { attrsOf, FakeError, list } from '../replay/kit.ts';

const GONE = new Set(['NoSuchEntity', 'NoSuchEntityException']);

/** An IAM read; NoSuchEntity gives undefined. */
export async function iamGet<O>(ctx: AwsContext, command: unknown, what: string): Promise<O | undefined> {
  try {
    return await ctx.send<O>(ctx.iam(), command, what);
  } catch (e) {
    if (GONE.has(errorName(e))) return undefined;
    throw e;
  }
}

export const noSuch = (what: string) => new FakeError('NoSuchEntity', `The ${what} cannot be found.`, 404);

/** aws_iam_group_policy ids are `group:policy`. */
export const groupPolicyKey = (a: Record<string, unknown>) => {
  const [idGroup, idName] = str(a.id).split(':');
  return { group: str(a.group) || idGroup, name: str(a.name) || idName };
};

/** Every group the state names, with the users it says are members (both membership types). */
export function fakeGroups(world: FakeWorld): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  const add = (g: string, users: string[] = []) => {
    if (!g) return;
    const s = groups.get(g) ?? new Set<string>();
    users.forEach((u) => s.add(u));
    groups.set(g, s);
  };
  for (const a of attrsOf(world, 'aws_iam_group')) add(str(a.name || a.id));
  for (const a of attrsOf(world, 'aws_iam_group_membership')) add(str(a.group), list(a.users));
  for (const a of attrsOf(world, 'aws_iam_user_group_membership')) for (const g of list(a.groups)) add(g, [str(a.user)]);
  for (const a of attrsOf(world, 'aws_iam_group_policy_attachment')) add(str(a.group));
  for (const a of attrsOf(world, 'aws_iam_group_policy')) add(groupPolicyKey(a).group);
  return groups;
}

/** Every user the state names (users, memberships, login profiles). */
export function fakeUsers(world: FakeWorld): Set<string> {
  const users = new Set<string>(attrsOf(world, 'aws_iam_user').map((a) => str(a.name || a.id)));
  for (const members of fakeGroups(world).values()) members.forEach((u) => users.add(u));
  for (const a of attrsOf(world, 'aws_iam_user_login_profile')) users.add(str(a.user || a.id));
  for (const t of ['aws_iam_user_policy_attachment', 'aws_iam_access_key']) for (const a of attrsOf(world, t)) users.add(str(a.user));
  return users;
}
