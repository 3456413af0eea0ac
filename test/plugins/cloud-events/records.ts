// CloudTrail records in the shapes AWS documents them (CloudTrail User Guide, "CloudTrail record
// contents" and the per-service logging pages for EC2, S3 and IAM): the fields each call really
// carries, with the test's own ids, account and identity. `bridge` wraps one as EventBridge
// delivers it ("AWS API Call via CloudTrail", the record under detail).
import { randomUUID } from 'node:crypto';

export const ACCOUNT = '123456789012';
export const ALICE = `arn:aws:iam::${ACCOUNT}:user/Alice`;
export const DEPLOYER = `arn:aws:sts::${ACCOUNT}:assumed-role/deployer/ci-session`;

const iamUser = (arn = ALICE) => ({
  type: 'IAMUser', principalId: 'AIDAJ45Q7YFFAREXAMPLE', arn, accountId: ACCOUNT, accessKeyId: 'AKIAIOSFODNN7EXAMPLE', userName: arn.split('/').pop(),
});
const assumedRole = () => ({
  type: 'AssumedRole', principalId: 'AROAIDPPEZS35WEXAMPLE:ci-session', arn: DEPLOYER, accountId: ACCOUNT, accessKeyId: 'ASIAIOSFODNN7EXAMPLE',
  sessionContext: {
    sessionIssuer: { type: 'Role', principalId: 'AROAIDPPEZS35WEXAMPLE', arn: `arn:aws:iam::${ACCOUNT}:role/deployer`, accountId: ACCOUNT, userName: 'deployer' },
    webIdFederationData: {}, attributes: { creationDate: '2026-11-24T07:00:00Z', mfaAuthenticated: 'false' },
  },
});

type Options = { at?: Date; id?: string; identity?: 'user' | 'role'; arn?: string; region?: string };
function record(source: string, eventName: string, requestParameters: unknown, responseElements: unknown, o: Options = {}) {
  return {
    eventVersion: '1.08',
    userIdentity: o.identity === 'role' ? assumedRole() : iamUser(o.arn),
    eventTime: (o.at ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    eventSource: source, eventName, awsRegion: o.region ?? 'us-east-1', sourceIPAddress: '192.0.2.1', userAgent: 'aws-cli/2.13.5 Python/3.11.4 Linux/6.1 exe/x86_64',
    requestParameters, responseElements,
    requestID: randomUUID(), eventID: o.id ?? randomUUID(), readOnly: false, eventType: 'AwsApiCall', managementEvent: true,
    recipientAccountId: ACCOUNT, eventCategory: 'Management',
    tlsDetails: { tlsVersion: 'TLSv1.2', cipherSuite: 'ECDHE-RSA-AES128-GCM-SHA256', clientProvidedHostHeader: `${source.split('.')[0]}.us-east-1.amazonaws.com` },
  };
}
const ipPermissions = (port: number, cidr: string) => ({ items: [{ ipProtocol: 'tcp', fromPort: port, toPort: port, groups: {}, ipRanges: { items: [{ cidrIp: cidr }] }, ipv6Ranges: {}, prefixListIds: {} }] });

export const trail = {
  authorizeIngress: (groupId: string, port: number, cidr: string, o?: Options) => record('ec2.amazonaws.com', 'AuthorizeSecurityGroupIngress',
    { groupId, ipPermissions: ipPermissions(port, cidr) },
    { requestId: randomUUID(), _return: true, securityGroupRuleSet: { items: [{ groupOwnerId: ACCOUNT, groupId, securityGroupRuleId: 'sgr-0b1d1ecEXAMPLE', isEgress: false, ipProtocol: 'tcp', fromPort: port, toPort: port, cidrIpv4: cidr }] } }, o),
  revokeIngress: (groupId: string, port: number, cidr: string, o?: Options) => record('ec2.amazonaws.com', 'RevokeSecurityGroupIngress',
    { groupId, ipPermissions: ipPermissions(port, cidr) }, { requestId: randomUUID(), _return: true }, o),
  putBucketVersioning: (bucketName: string, status: 'Enabled' | 'Suspended', o?: Options) => record('s3.amazonaws.com', 'PutBucketVersioning',
    { bucketName, Host: `${bucketName}.s3.us-east-1.amazonaws.com`, versioning: '', VersioningConfiguration: { Status: status, xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' } }, null, o),
  putBucketPolicy: (bucketName: string, o?: Options) => record('s3.amazonaws.com', 'PutBucketPolicy',
    { bucketPolicy: { Version: '2012-10-17', Statement: [{ Sid: 'Read', Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${bucketName}/*` }] }, bucketName, Host: `${bucketName}.s3.amazonaws.com`, policy: '' }, null, o),
  modifyInstanceAttribute: (instanceId: string, o?: Options) => record('ec2.amazonaws.com', 'ModifyInstanceAttribute',
    { instanceId, disableApiTermination: { value: true } }, { requestId: randomUUID(), _return: true }, o),
  terminateInstances: (instanceId: string, o?: Options) => record('ec2.amazonaws.com', 'TerminateInstances',
    { instancesSet: { items: [{ instanceId }] } },
    { requestId: randomUUID(), instancesSet: { items: [{ instanceId, currentState: { code: 32, name: 'shutting-down' }, previousState: { code: 16, name: 'running' } }] } }, o),
  putRolePolicy: (roleName: string, o?: Options) => record('iam.amazonaws.com', 'PutRolePolicy',
    { roleName, policyName: 'inline-read', policyDocument: '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}' }, null, o),
  attachRolePolicy: (roleName: string, policyArn: string, o?: Options) => record('iam.amazonaws.com', 'AttachRolePolicy', { roleName, policyArn }, null, o),
  createTags: (resourceId: string, key: string, value: string, o?: Options) => record('ec2.amazonaws.com', 'CreateTags',
    { resourcesSet: { items: [{ resourceId }] }, tagSet: { items: [{ key, value }] } }, { requestId: randomUUID(), _return: true }, o),
  describeInstances: (instanceId: string, o?: Options) => ({
    ...record('ec2.amazonaws.com', 'DescribeInstances', { instancesSet: { items: [{ instanceId }] }, filterSet: {} }, null, o), readOnly: true,
  }),
};

export const bridge = (detail: Record<string, unknown>) => ({
  version: '0', id: randomUUID(), 'detail-type': 'AWS API Call via CloudTrail', source: `aws.${String(detail.eventSource).split('.')[0]}`,
  account: ACCOUNT, time: detail.eventTime, region: detail.awsRegion, resources: [], detail,
});
