/**
 * The IAM coverage report (`local/iam/iam-coverage.ts`): recorded calls from several processes'
 * files merged, set against the functions' grants. No network; files in a temporary folder.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CoverageRecord,
  coverageFileIn,
  coverageReport,
  grantsOf,
  readCoverageDirectory,
} from '../../local/iam/iam-coverage';
import type { FunctionIdentity } from '../../local/iam/iam-evaluation';

const TABLE_ARN = 'arn:aws:dynamodb:eu-west-1:111122223333:table/asset-registry';
const FILES = 'arn:aws:s3:::asset-registry-files';

const functions: FunctionIdentity[] = [
  {
    functionName: 'getObject',
    roleArn: 'arn:aws:iam::111122223333:role/getObject',
    identityPolicies: [
      {
        name: 'DefaultPolicy',
        policy: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: TABLE_ARN },
            { Effect: 'Allow', Action: 's3:Get*', Resource: [`${FILES}/companies/*`] },
            { Effect: 'Deny', Action: 'dynamodb:UpdateItem', Resource: TABLE_ARN },
          ],
        },
      },
    ],
  },
];

const call = (action: string, resourcePattern: string, functionName = 'getObject'): CoverageRecord => ({
  functionName,
  action,
  resourcePattern,
  policyType: 'identity',
});

it('lists every Allow statement action and resource as a grant (a Deny grants nothing)', () => {
  expect(grantsOf(functions).map(({ action, resource }) => `${action} ${resource}`)).toEqual([
    `dynamodb:GetItem ${TABLE_ARN}`,
    `dynamodb:Query ${TABLE_ARN}`,
    `s3:Get* ${FILES}/companies/*`,
  ]);
});

it('reports the distinct calls and the grants no call used; a wildcard action is used by any call it matches', () => {
  // Prepare
  const records = [
    call('dynamodb:GetItem', TABLE_ARN),
    call('s3:GetObjectVersion', `${FILES}/companies/*`),
    call('dynamodb:GetItem', TABLE_ARN),
    { ...call('kms:Sign', '*'), policyType: 'resource' as const },
  ];
  // Act
  const report = coverageReport(records, functions);
  // Assess
  expect(report.calls).toEqual([
    call('dynamodb:GetItem', TABLE_ARN),
    call('s3:GetObjectVersion', `${FILES}/companies/*`),
  ]);
  expect(report.unusedGrants).toEqual([
    { functionName: 'getObject', policyName: 'DefaultPolicy', action: 'dynamodb:Query', resource: TABLE_ARN },
  ]);
});

it('a call by another function, or on another resource pattern, does not use a grant', () => {
  // Act
  const report = coverageReport(
    [call('dynamodb:Query', TABLE_ARN, 'listObjects'), call('s3:GetObject', `${FILES}/*`)],
    functions,
  );
  // Assess
  expect(report.unusedGrants.map(({ action }) => action)).toEqual([
    'dynamodb:GetItem',
    'dynamodb:Query',
    's3:Get*',
  ]);
});

it('merges the JSON Lines files of several processes, each record once', () => {
  // Prepare
  const directory = mkdtempSync(join(tmpdir(), 'iam-coverage-'));
  const line = (record: CoverageRecord) => `${JSON.stringify(record)}\n`;
  writeFileSync(coverageFileIn(directory, 101), line(call('dynamodb:GetItem', TABLE_ARN)));
  writeFileSync(
    coverageFileIn(directory, 102),
    line(call('dynamodb:GetItem', TABLE_ARN)) + line(call('dynamodb:Query', TABLE_ARN)),
  );
  writeFileSync(join(directory, 'notes.txt'), 'not a record');
  // Act
  const records = readCoverageDirectory(directory);
  // Assess
  expect(records).toEqual([call('dynamodb:GetItem', TABLE_ARN), call('dynamodb:Query', TABLE_ARN)]);
  expect(readCoverageDirectory(join(directory, 'missing'))).toEqual([]);
});

it("does not report the grants of the Lambda service's own calls (logs, traces), which never pass the endpoint", () => {
  // Prepare
  const withPlatformGrants: FunctionIdentity[] = [
    {
      ...functions[0]!,
      identityPolicies: [
        {
          name: 'DefaultPolicy',
          policy: {
            Statement: [
              {
                Effect: 'Allow',
                Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
                Resource: 'arn:aws:logs:*',
              },
              { Effect: 'Allow', Action: 'xray:PutTraceSegments', Resource: '*' },
              { Effect: 'Allow', Action: 'kms:Sign', Resource: '*' },
            ],
          },
        },
      ],
    },
  ];
  // Act
  const byDefault = coverageReport([], withPlatformGrants);
  const everything = coverageReport([], withPlatformGrants, { ignoredActions: [] });
  // Assess
  expect(byDefault.unusedGrants.map(({ action }) => action)).toEqual(['kms:Sign']);
  expect(everything.unusedGrants).toHaveLength(4);
});
