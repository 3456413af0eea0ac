// google_data_catalog_policy_tag: Data Catalog v1 `projects/P/locations/L/taxonomies/T/policyTags/PT`
// (the tag's full name is its id). A taxonomy's tags are read with one paged list when the state
// holds several of them.
import { listedReader, short } from '../data/kit.ts';

type A = Record<string, any>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const tagName = (a: A) => [text(a.name), text(a.id)].find((v) => v?.startsWith('projects/') && v.includes('/policyTags/'));
/** Parents as the provider writes them: "" for a top-level tag. */
const parent = (v: unknown) => (typeof v === 'string' ? v : '');

export const policyTagReader = listedReader({
  type: 'google_data_catalog_policy_tag',
  service: 'datacatalog',
  route: '/v1/projects/:project/locations/:location/taxonomies/:taxonomy/policyTags/:tag',
  pathOf: (a) => { const n = tagName(a); return n && `/v1/${n}`; },
  toState: (j, i) => ({
    name: j.name, display_name: j.displayName ?? '', description: j.description ?? '',
    // The parent is a tag of the same taxonomy: the state may name it in full or by id.
    parent_policy_tag: short(parent(i.attributes.parent_policy_tag)) === short(j.parentPolicyTag ?? '') ? i.attributes.parent_policy_tag : j.parentPolicyTag ?? '',
  }),
  fromState: (a) => ({
    name: tagName(a), displayName: a.display_name, description: a.description || undefined,
    parentPolicyTag: a.parent_policy_tag || undefined, childPolicyTags: Array.isArray(a.child_policy_tags) && a.child_policy_tags.length ? a.child_policy_tags : undefined,
  }),
}, {
  path: (a) => { const n = tagName(a); return n && `/v1/${n.split('/policyTags/')[0]}/policyTags?pageSize=1000`; },
  route: '/v1/projects/:project/locations/:location/taxonomies/:taxonomy/policyTags',
  key: 'policyTags',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
});
