/**
 * The local IAM evaluation (`local/iam/iam-evaluation.ts`) on hand-made policies with concrete
 * ARNs: Allow, no Allow, explicit Deny, `dynamodb:LeadingKeys` conditions, a bucket policy that
 * denies requests without TLS, a KMS key policy. No network.
 */
import { LEDGER_BARE_PUT_CONDITION, LEDGER_PARTITION_PATTERN } from '../../lib/ledger-protection';
import type { AuthorizationRequest } from '../../local/iam/authorization-request';
import {
  assumedRoleArn,
  evaluateAuthorization,
  type FunctionIdentity,
  type PolicyDocument,
} from '../../local/iam/iam-evaluation';

const ACCOUNT = '111122223333';
const account = { region: 'eu-west-1', accountId: ACCOUNT };
const TABLE_ARN = `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/asset-registry`;
const BUCKET_ARN = 'arn:aws:s3:::asset-registry-files';
const KEY_ARN = `arn:aws:kms:eu-west-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
const ROLE_ARN = `arn:aws:iam::${ACCOUNT}:role/asset-registry-GetObjectRole-AbC`;

const identityWith = (...statements: unknown[]): FunctionIdentity => ({
  functionName: 'asset-registry-GetObject',
  roleArn: ROLE_ARN,
  identityPolicies: [
    { name: 'GetObjectRoleDefaultPolicy', policy: { Version: '2012-10-17', Statement: statements } },
  ],
});

const getItem = (partitionKey: string): AuthorizationRequest => ({
  action: 'dynamodb:GetItem',
  resource: TABLE_ARN,
  context: { 'dynamodb:LeadingKeys': [partitionKey] },
});

describe('identity policies', () => {
  it('an Allow of the action on the resource allows, and names the statement resource pattern', async () => {
    // Prepare
    const identity = identityWith({ Effect: 'Allow', Action: ['dynamodb:GetItem'], Resource: TABLE_ARN });
    // Act
    const decision = await evaluateAuthorization(getItem('T#1#OBJECT#7'), identity, { account });
    // Assess
    expect(decision).toEqual({
      allowed: true,
      allowedBy: [
        { policyType: 'identity', policyName: 'GetObjectRoleDefaultPolicy', resourcePattern: TABLE_ARN },
      ],
    });
  });

  it("without an Allow, the call is refused in AWS's words", async () => {
    // Prepare
    const identity = identityWith({
      Effect: 'Allow',
      Action: ['dynamodb:Query'],
      Resource: `${TABLE_ARN}/index/gsi1`,
    });
    const query: AuthorizationRequest = {
      action: 'dynamodb:Query',
      resource: `${TABLE_ARN}/index/gsi2`,
      context: { 'dynamodb:LeadingKeys': ['T#1#CATEGORIES'] },
    };
    // Act
    const decision = await evaluateAuthorization(query, identity, { account });
    // Assess
    expect(decision).toEqual({
      allowed: false,
      explicit: false,
      refusedBy: 'identity',
      message:
        `User: arn:aws:sts::${ACCOUNT}:assumed-role/asset-registry-GetObjectRole-AbC/asset-registry-GetObject ` +
        `is not authorized to perform: dynamodb:Query on resource: ${TABLE_ARN}/index/gsi2 ` +
        'because no identity-based policy allows the dynamodb:Query action',
    });
  });

  it('an explicit Deny wins over an Allow (the ledger is append-only)', async () => {
    // Prepare
    const identity = identityWith(
      { Effect: 'Allow', Action: ['dynamodb:UpdateItem'], Resource: TABLE_ARN },
      {
        Sid: 'LedgerIsAppendOnly',
        Effect: 'Deny',
        Action: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
        Resource: TABLE_ARN,
        Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['T#*#LEDGER#*'] } },
      },
    );
    const update = (partitionKey: string): AuthorizationRequest => ({
      action: 'dynamodb:UpdateItem',
      resource: TABLE_ARN,
      context: { 'dynamodb:LeadingKeys': [partitionKey] },
    });
    // Act
    const ledger = await evaluateAuthorization(update('T#1#LEDGER#OBJECT#7'), identity, { account });
    const counter = await evaluateAuthorization(update('T#1#COUNTERS'), identity, { account });
    // Assess
    expect(ledger).toMatchObject({ allowed: false, explicit: true, refusedBy: 'identity' });
    expect(ledger.allowed || ledger.message).toMatch(/with an explicit deny in an identity-based policy$/);
    expect(counter.allowed).toBe(true);
  });

  it('a ledger item is put only inside a transaction: a bare PutItem is denied', async () => {
    // Prepare
    const ledgerKeys = { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_PARTITION_PATTERN] } };
    const identity = identityWith(
      { Effect: 'Allow', Action: ['dynamodb:PutItem'], Resource: TABLE_ARN },
      {
        Effect: 'Deny',
        Action: ['dynamodb:PutItem'],
        Resource: TABLE_ARN,
        Condition: { ...ledgerKeys, ...LEDGER_BARE_PUT_CONDITION },
      },
    );
    const put = (partitionKey: string, enclosing?: string): AuthorizationRequest => ({
      action: 'dynamodb:PutItem',
      resource: TABLE_ARN,
      context: {
        'dynamodb:LeadingKeys': [partitionKey],
        ...(enclosing ? { 'dynamodb:EnclosingOperation': enclosing } : {}),
      },
    });
    // Act
    const barePut = await evaluateAuthorization(put('T#1#LEDGER#object#7'), identity, { account });
    const transactionPut = await evaluateAuthorization(
      put('T#1#LEDGER#object#7', 'TransactWriteItems'),
      identity,
      { account },
    );
    const otherPut = await evaluateAuthorization(put('T#1#OBJECT#7'), identity, { account });
    // Assess
    expect(barePut).toMatchObject({ allowed: false, explicit: true, refusedBy: 'identity' });
    expect(transactionPut.allowed).toBe(true);
    expect(otherPut.allowed).toBe(true);
  });

  it('ForAllValues:StringLike on dynamodb:LeadingKeys: every key the request touches must match', async () => {
    // Prepare
    const identity = identityWith({
      Effect: 'Allow',
      Action: ['dynamodb:PutItem', 'dynamodb:BatchWriteItem'],
      Resource: TABLE_ARN,
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#*#IDEMPOTENCY'] } },
    });
    const write = (...partitionKeys: string[]): AuthorizationRequest => ({
      action: 'dynamodb:BatchWriteItem',
      resource: TABLE_ARN,
      context: { 'dynamodb:LeadingKeys': partitionKeys },
    });
    // Act
    const own = await evaluateAuthorization(write('T#1#IDEMPOTENCY', 'T#2#IDEMPOTENCY'), identity, {
      account,
    });
    const mixed = await evaluateAuthorization(write('T#1#IDEMPOTENCY', 'T#1#OBJECT#7'), identity, {
      account,
    });
    // Assess
    expect(own.allowed).toBe(true);
    expect(mixed).toMatchObject({ allowed: false, explicit: false, refusedBy: 'identity' });
  });
});

describe('resource policies', () => {
  /** The statement CDK's `enforceSSL` adds to a bucket policy. */
  const denyWithoutTls: PolicyDocument = {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 's3:*',
        Resource: [BUCKET_ARN, `${BUCKET_ARN}/*`],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ],
  };
  const identity = identityWith({
    Effect: 'Allow',
    Action: ['s3:GetObject'],
    Resource: `${BUCKET_ARN}/companies/*`,
  });
  const read = (context: Record<string, string> = {}): AuthorizationRequest => ({
    action: 's3:GetObject',
    resource: `${BUCKET_ARN}/companies/1/files/a`,
    context,
  });

  it('a bucket policy denying non-TLS requests: local calls count as HTTPS, as they are in AWS', async () => {
    // Act
    const local = await evaluateAuthorization(read(), identity, { account, resourcePolicy: denyWithoutTls });
    const plainHttp = await evaluateAuthorization(read({ 'aws:SecureTransport': 'false' }), identity, {
      account,
      resourcePolicy: denyWithoutTls,
    });
    // Assess
    expect(local.allowed).toBe(true);
    expect(plainHttp).toMatchObject({ allowed: false, explicit: true, refusedBy: 'resource' });
    expect(plainHttp.allowed || plainHttp.message).toMatch(
      /with an explicit deny in a resource-based policy$/,
    );
  });

  it("a KMS key policy must allow the account (then the role's policy decides) or the role", async () => {
    // Prepare
    const sign: AuthorizationRequest = { action: 'kms:Sign', resource: KEY_ARN, context: {} };
    const signer = identityWith({ Effect: 'Allow', Action: ['kms:Sign'], Resource: KEY_ARN });
    const keyPolicyFor = (principal: string): PolicyDocument => ({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { AWS: principal }, Action: 'kms:*', Resource: '*' }],
    });
    // Act
    const accountKey = await evaluateAuthorization(sign, signer, {
      account,
      resourcePolicy: keyPolicyFor(`arn:aws:iam::${ACCOUNT}:root`),
    });
    const roleKey = await evaluateAuthorization(sign, identityWith(), {
      account,
      resourcePolicy: keyPolicyFor(ROLE_ARN),
    });
    const otherRoleKey = await evaluateAuthorization(sign, signer, {
      account,
      resourcePolicy: keyPolicyFor(`arn:aws:iam::${ACCOUNT}:role/someone-else`),
    });
    const accountKeyWithoutGrant = await evaluateAuthorization(sign, identityWith(), {
      account,
      resourcePolicy: keyPolicyFor(`arn:aws:iam::${ACCOUNT}:root`),
    });
    // Assess
    expect(accountKey.allowed).toBe(true);
    expect(roleKey).toEqual({
      allowed: true,
      allowedBy: [{ policyType: 'resource', policyName: expect.any(String), resourcePattern: '*' }],
    });
    expect(otherRoleKey).toMatchObject({ allowed: false, explicit: false, refusedBy: 'resource' });
    expect(otherRoleKey.allowed || otherRoleKey.message).toMatch(
      /because no resource-based policy allows the kms:Sign action$/,
    );
    expect(accountKeyWithoutGrant).toMatchObject({ allowed: false, refusedBy: 'identity' });
  });
});

it("a function's calls are made as its role's session", () => {
  expect(assumedRoleArn({ roleArn: ROLE_ARN, functionName: 'asset-registry-GetObject' })).toBe(
    `arn:aws:sts::${ACCOUNT}:assumed-role/asset-registry-GetObjectRole-AbC/asset-registry-GetObject`,
  );
});
