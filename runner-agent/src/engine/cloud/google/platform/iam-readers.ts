// google_project_iam_member / _binding / _policy (Resource Manager v1 `projects/P:getIamPolicy`,
// one POST per project per scan) and google_storage_bucket_iam_member / _binding / _policy
// (Storage JSON v1 `b/B/iam`, one GET per bucket per scan, policy version 3 so conditional
// bindings come back). The state names the bucket `b/NAME` (the provider's IAM resource id).
import { ownProject } from '../kit.ts';
import { bindingView, iamReader, memberView, policyView, type IamTarget } from './iam.ts';

const projectTarget: IamTarget = {
  service: 'cloudresourcemanager',
  // `project` as an id (the provider's), or `projects/P` as some configurations write it.
  resourceOf: (a, project) => (ownProject(a) ?? (typeof a.id === 'string' && a.id.includes('/') ? a.id.split('/')[0] : undefined) ?? (project || undefined))?.replace(/^projects\//, ''),
  method: 'POST',
  policyPath: (project) => `/v1/projects/${project}:getIamPolicy`,
  route: '/v1/projects/:target',
  resourceOfRequest: (req) => req.params.target.replace(/:getIamPolicy$/, ''),
  types: { member: 'google_project_iam_member', binding: 'google_project_iam_binding', policy: 'google_project_iam_policy' },
};

/** `b/NAME` or `NAME` (what users write in `bucket`), or the id's first part. */
const bucketOf = (a: Record<string, any>): string | undefined => {
  const raw = typeof a.bucket === 'string' && a.bucket ? a.bucket : typeof a.id === 'string' ? a.id : '';
  return raw.replace(/^b\//, '').split('/')[0] || undefined;
};

const bucketTarget: IamTarget = {
  service: 'storage',
  resourceOf: (a) => bucketOf(a),
  method: 'GET',
  policyPath: (bucket) => `/storage/v1/b/${encodeURIComponent(bucket)}/iam?optionsRequestedPolicyVersion=3`,
  route: '/storage/v1/b/:target/iam',
  resourceOfRequest: (req) => req.params.target,
  types: { member: 'google_storage_bucket_iam_member', binding: 'google_storage_bucket_iam_binding', policy: 'google_storage_bucket_iam_policy' },
};

// One fake route per family (on its member reader): the fake merges equal answers, but one is enough.
export const IAM_READERS = {
  google_project_iam_member: iamReader(projectTarget, memberView, true),
  google_project_iam_binding: iamReader(projectTarget, bindingView, false),
  google_project_iam_policy: iamReader(projectTarget, policyView, false),
  google_storage_bucket_iam_member: iamReader(bucketTarget, memberView, true),
  google_storage_bucket_iam_binding: iamReader(bucketTarget, bindingView, false),
  google_storage_bucket_iam_policy: iamReader(bucketTarget, policyView, false),
};
