/**
 * Safe updates of the stateful resources (docs/deploying.md): every one is retained on delete and
 * on replacement unless `lib/stateful-resources.ts` says why not; the table keeps point-in-time
 * recovery and deletion protection; and a change that would replace one (a new logical id, a
 * create-only property, a key's spec, the ledger's Object Lock) fails here, against the
 * committed snapshot, with a message that says what would happen and how to do it without
 * losing data. The snapshot also records, marked with their context, the resources that only an
 * optional context adds (`CONTEXTS_ADDING_STATEFUL_RESOURCES`: the Cognito user pool of
 * `-c identity=cognito`), so each such context is synthesized too. After an intentional change:
 * `UPDATE_STATEFUL_SNAPSHOT=1 npx jest test/infra/stateful-resources.test.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDENTITY_CONTEXT } from '../../lib/people-sign-in.js';
import {
  CONTEXTS_ADDING_STATEFUL_RESOURCES,
  NOT_RETAINED,
  STATEFUL_RESOURCE_TYPES,
  STATEFUL_TYPES_NOT_RETAINED,
} from '../../lib/stateful-resources.js';
import { resourceSchemaOf } from '../../scripts/deploy-check/resource-schemas.js';
import {
  compareWithSnapshot,
  deployInventory,
  retainedOnDestroy,
  type StatefulResource,
  type StatefulSnapshot,
  type SynthesisWithContext,
  snapshotOf,
  statefulResourcesOf,
  unretained,
} from '../../scripts/deploy-check/stateful-resources.js';
import {
  type StackTemplate,
  synthesizedTemplates,
} from '../../scripts/deploy-check/synthesized-templates.js';

const SNAPSHOT_FILE = join(__dirname, 'stateful-resources.snapshot.json');

const readSnapshot = (): StatefulSnapshot =>
  JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as StatefulSnapshot;
const copyOf = <T>(value: T): T => structuredClone(value);

/** The default synthesis's templates and stateful resources. */
let templates: StackTemplate[];
let resources: StatefulResource[];
/** One synthesis per optional context that adds stateful resources, in the list's order. */
let withContexts: Array<SynthesisWithContext & { templates: StackTemplate[] }>;
/** The snapshot these syntheses give (the committed one, when it is up to date). */
let snapshot: StatefulSnapshot;

beforeAll(() => {
  // Act: each synthesis once (seconds each).
  templates = synthesizedTemplates();
  resources = statefulResourcesOf(templates);
  withContexts = CONTEXTS_ADDING_STATEFUL_RESOURCES.map((context) => {
    const synthesized = synthesizedTemplates(context);
    return { context, templates: synthesized, resources: statefulResourcesOf(synthesized) };
  });
  snapshot = snapshotOf(resources, withContexts);
  if (process.env.UPDATE_STATEFUL_SNAPSHOT === '1') {
    writeFileSync(SNAPSHOT_FILE, `${JSON.stringify(snapshot, null, 2)}\n`);
  }
}, 120_000);

const COGNITO = { [IDENTITY_CONTEXT]: 'cognito' };
const cognitoSynthesis = () =>
  withContexts.find((each) => JSON.stringify(each.context) === JSON.stringify(COGNITO))!;

describe('retention', () => {
  it('finds the stateful resources of every stack, nested stacks and the console-files stack included', () => {
    // Assess
    const byType = (type: string) => resources.filter((resource) => resource.type === type).length;
    expect(byType('AWS::DynamoDB::Table')).toBe(1);
    expect(byType('AWS::S3::Bucket')).toBe(4);
    expect(byType('AWS::KMS::Key')).toBe(3);
    // Webhook deliveries and their dead letters; failed work and job failures (lib/failed-work.ts).
    expect(byType('AWS::SQS::Queue')).toBe(4);
    const stacksWithLogGroups = new Set(
      resources
        .filter((resource) => resource.type === 'AWS::Logs::LogGroup')
        .map((resource) => resource.stackName),
    );
    expect(stacksWithLogGroups.size).toBe(templates.length);
  });

  it('retains every stateful resource on delete and on replacement, but the listed exceptions', () => {
    // Assess
    expect(unretained(resources).map((finding) => finding.message)).toEqual([]);
  });

  it('lists only exceptions that match a resource, each with its reason', () => {
    // Assess
    for (const exception of NOT_RETAINED) {
      const matching = resources.filter((resource) => resource.notRetainedReason === exception.reason);
      expect({ path: exception.path, matches: matching.length }).toEqual({
        path: exception.path,
        matches: 1,
      });
      expect(matching[0]!.deletionPolicy).toBe('Delete');
      expect(exception.reason.length).toBeGreaterThan(40);
    }
    for (const reason of Object.values(STATEFUL_TYPES_NOT_RETAINED))
      expect(reason.length).toBeGreaterThan(40);
  });

  it('catches a stateful resource left to the default (Delete)', () => {
    // Prepare
    const changed = copyOf(templates);
    const queue = Object.values(changed[0]!.template.Resources).find(
      (resource) => resource.Type === 'AWS::SQS::Queue',
    )!;
    delete queue.DeletionPolicy;
    // Act
    const findings = unretained(statefulResourcesOf(changed));
    // Assess
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(/AWS::SQS::Queue .* has DeletionPolicy Delete/);
  });

  it('keeps point-in-time recovery and deletion protection on the table', () => {
    // Assess
    const [table] = Object.values(templates[0]!.template.Resources).filter(
      (resource) => resource.Type === 'AWS::DynamoDB::Table',
    );
    expect(table!.Properties).toMatchObject({
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('decides for every type the CloudFormation schemas mark stateful that the stacks use', () => {
    // Prepare
    const types = new Set(
      templates.flatMap(({ template }) => Object.values(template.Resources).map((each) => each.Type)),
    );
    // Assess
    const markedStateful = [...types].filter((type) => resourceSchemaOf(type)?.isStateful).sort();
    const decided = (type: string) => type in STATEFUL_RESOURCE_TYPES || type in STATEFUL_TYPES_NOT_RETAINED;
    expect(markedStateful.filter((type) => !decided(type))).toEqual([]);
  });
});

describe('the committed snapshot', () => {
  it('matches the templates: no stateful resource would be replaced, renamed or left unrecorded', () => {
    // Act
    const findings = compareWithSnapshot(resources, readSnapshot(), {});
    // Assess: each message says which resource, why, and how to change it without losing data.
    expect(findings.map((finding) => finding.message)).toEqual([]);
  });

  it.each(CONTEXTS_ADDING_STATEFUL_RESOURCES)('matches the templates synthesized with %o', (context) => {
    // Prepare
    const synthesis = withContexts.find((each) => each.context === context)!;
    // Act
    const findings = compareWithSnapshot(synthesis.resources, readSnapshot(), context);
    // Assess
    expect(findings.map((finding) => finding.message)).toEqual([]);
  });

  it.each([
    ['committed', readSnapshot],
    ['written', () => snapshot],
  ])(
    '%s: marks what only a context adds (the user pool), never a resource of the default synthesis',
    (_, snapshotToRead) => {
      // Prepare
      const recorded = snapshotToRead().resources;
      const inDefaultSynthesis = new Set(resources.map((each) => `${each.stackName} ${each.logicalId}`));
      // Assess
      const marked = recorded.filter((entry) => entry.withContext !== undefined);
      expect(
        marked.filter((entry) => inDefaultSynthesis.has(`${entry.stackName} ${entry.logicalId}`)),
      ).toEqual([]);
      expect(marked).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'AWS::Cognito::UserPool', withContext: COGNITO }),
        ]),
      );
      expect(recorded.filter((entry) => entry.withContext === undefined)).toHaveLength(resources.length);
    },
  );

  it('records the properties that replace a resource, read from the CloudFormation schemas', () => {
    // Prepare
    const recorded = readSnapshot().resources;
    const guardedOf = (type: string) =>
      Object.keys(recorded.find((resource) => resource.type === type)!.guarded);
    // Assess
    expect(guardedOf('AWS::DynamoDB::Table')).toEqual(
      expect.arrayContaining(['KeySchema', 'TableName', 'GlobalSecondaryIndexes', 'AttributeDefinitions']),
    );
    expect(guardedOf('AWS::S3::Bucket')).toEqual(
      expect.arrayContaining(['BucketName', 'ObjectLockEnabled', 'ObjectLockConfiguration']),
    );
    expect(guardedOf('AWS::KMS::Key')).toEqual(expect.arrayContaining(['KeySpec', 'KeyUsage']));
    expect(guardedOf('AWS::SQS::Queue')).toEqual(expect.arrayContaining(['FifoQueue', 'QueueName']));
    expect(guardedOf('AWS::Logs::LogGroup')).toEqual(expect.arrayContaining(['LogGroupName']));
  });
});

describe('what the comparison catches', () => {
  const findingsAfter = (change: (changed: StackTemplate[]) => void) => {
    const changed = copyOf(templates);
    change(changed);
    return compareWithSnapshot(statefulResourcesOf(changed), snapshot, {});
  };
  /** A logical id starts with its construct's path (`LedgerDigestsDigestBucket…`). */
  const logicalIdOfType = (template: StackTemplate, type: string, pathPrefix = '') =>
    Object.entries(template.template.Resources).find(
      ([logicalId, resource]) => resource.Type === type && logicalId.startsWith(pathPrefix),
    )![0];

  it('a renamed table construct (a new logical id): gone and new, with how to keep the id or move the data', () => {
    // Act
    const findings = findingsAfter(([root]) => {
      const id = logicalIdOfType(root!, 'AWS::DynamoDB::Table');
      root!.template.Resources[`${id}Renamed`] = root!.template.Resources[id]!;
      delete root!.template.Resources[id];
    });
    // Assess
    expect(findings.map((finding) => finding.kind).sort()).toEqual(['gone', 'new']);
    const gone = findings.find((finding) => finding.kind === 'gone')!;
    expect(gone.message).toMatch(/AWS::DynamoDB::Table DataStoreTable\w+ in AssetRegistryStack/);
    expect(gone.message).toMatch(/overrideLogicalId/);
    expect(gone.message).toMatch(/copy the items/);
  });

  it("a changed key schema: replaced, because the table's schema marks KeySchema create-only", () => {
    // Act
    const findings = findingsAfter(([root]) => {
      const table = root!.template.Resources[logicalIdOfType(root!, 'AWS::DynamoDB::Table')]!;
      (table.Properties!.KeySchema as Array<{ AttributeName: string }>)[1]!.AttributeName = 'sortKey';
    });
    // Assess
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'replaced', property: 'KeySchema' });
    expect(findings[0]!.message).toMatch(/marks KeySchema as create-only/);
  });

  it('a changed index key: refused by CloudFormation (one index per update), said so', () => {
    // Act
    const findings = findingsAfter(([root]) => {
      const table = root!.template.Resources[logicalIdOfType(root!, 'AWS::DynamoDB::Table')]!;
      const [index] = table.Properties!.GlobalSecondaryIndexes as Array<{
        KeySchema: Array<{ AttributeName: string }>;
      }>;
      index!.KeySchema[0]!.AttributeName = 'otherKey';
    });
    // Assess
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'guarded-change', property: 'GlobalSecondaryIndexes' });
    expect(findings[0]!.message).toMatch(/at most one global secondary index per update/);
  });

  it("the ledger bucket's Object Lock turned to GOVERNANCE, and a bucket given a name", () => {
    // Act
    const findings = findingsAfter(([root]) => {
      const ledger =
        root!.template.Resources[logicalIdOfType(root!, 'AWS::S3::Bucket', 'LedgerDigestsDigestBucket')]!;
      const lock = ledger.Properties!.ObjectLockConfiguration as {
        Rule: { DefaultRetention: { Mode: string } };
      };
      lock.Rule.DefaultRetention.Mode = 'GOVERNANCE';
      const files =
        root!.template.Resources[logicalIdOfType(root!, 'AWS::S3::Bucket', 'DataStoreFilesBucket')]!;
      files.Properties!.BucketName = 'asset-registry-files';
    });
    // Assess
    expect(findings.map(({ kind, property }) => `${kind} ${property}`).sort()).toEqual([
      'guarded-change ObjectLockConfiguration',
      'replaced BucketName',
    ]);
    expect(findings.find((finding) => finding.property === 'BucketName')!.message).toMatch(
      /DataStoreFilesBucket\w+ .*copy the objects/,
    );
  });

  it("a key's spec changed: CloudFormation refuses the update", () => {
    // Act
    const findings = findingsAfter(([root]) => {
      const key =
        root!.template.Resources[
          logicalIdOfType(root!, 'AWS::KMS::Key', 'LedgerDigestsCheckpointSigningKey')
        ]!;
      key.Properties!.KeySpec = 'ECC_NIST_P256';
    });
    // Assess
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(/KeySpec .*refuses to change a key's spec.*old public key/);
  });

  it('a FIFO queue made standard: replaced', () => {
    // Act
    const findings = findingsAfter(([root]) => {
      const queue =
        root!.template.Resources[logicalIdOfType(root!, 'AWS::SQS::Queue', 'EventsOutDeliveryQueue')]!;
      delete queue.Properties!.FifoQueue;
    });
    // Assess
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'replaced', property: 'FifoQueue' });
  });

  it("a nested stack's new logical id: every stateful resource in it is reported", () => {
    // Act
    const findings = findingsAfter((changed) => {
      const nested = changed.find((each) => each.stackName.endsWith('/CategoriesFunctions'))!;
      nested.nestedIn!.logicalId = `${nested.nestedIn!.logicalId}Moved`;
    });
    // Assess
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      expect(finding.stackName).toBe('AssetRegistryStack/CategoriesFunctions');
      expect(finding.message).toMatch(/nested stack whose logical id changed/);
    }
  });
});

describe('a resource only a context adds: the user pool of -c identity=cognito', () => {
  const poolOf = (templates: StackTemplate[]) =>
    statefulResourcesOf(templates).find((resource) => resource.type === 'AWS::Cognito::UserPool')!;

  it('renamed (a new logical id): reported gone under the context, with the context named', () => {
    // Prepare
    const changed = copyOf(cognitoSynthesis().templates);
    const pool = poolOf(changed);
    const poolStackResources = changed.find((each) => each.stackName === pool.stackName)!.template.Resources;
    poolStackResources[`${pool.logicalId}Renamed`] = poolStackResources[pool.logicalId]!;
    delete poolStackResources[pool.logicalId];
    // Act
    const findings = compareWithSnapshot(statefulResourcesOf(changed), snapshot, COGNITO);
    // Assess
    expect(findings.map((finding) => `${finding.kind} ${finding.logicalId}`).sort()).toEqual([
      `gone ${pool.logicalId}`,
      `new ${pool.logicalId}Renamed`,
    ]);
    expect(findings.find((finding) => finding.kind === 'gone')!.message).toMatch(
      /AWS::Cognito::UserPool PeopleSignInUserPool\w+ in AssetRegistryStack \(recorded for -c identity=cognito\) is no longer in the template/,
    );
  });

  it("its sign-in attributes changed (fixed at the pool's creation): reported, with how to move people", () => {
    // Prepare
    const changed = copyOf(cognitoSynthesis().templates);
    const pool = poolOf(changed);
    const poolResource = changed.find((each) => each.stackName === pool.stackName)!.template.Resources[
      pool.logicalId
    ]!;
    poolResource.Properties!.UsernameAttributes = ['phone_number'];
    // Act
    const findings = compareWithSnapshot(statefulResourcesOf(changed), snapshot, COGNITO);
    // Assess
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'guarded-change', property: 'UsernameAttributes' });
    expect(findings[0]!.message).toMatch(/sign-in options at its creation.*user migration Lambda trigger/);
  });

  it('absent without the context: by design, nothing reported', () => {
    // Prepare: the snapshot does record the pool.
    expect(snapshot.resources.filter((entry) => entry.type === 'AWS::Cognito::UserPool')).toHaveLength(1);
    // Act
    const findings = compareWithSnapshot(resources, snapshot, {});
    // Assess
    expect(findings).toEqual([]);
  });

  it('present without its context (not the synthesis the snapshot recorded it for): unknown, reported', () => {
    // Act
    const findings = compareWithSnapshot(cognitoSynthesis().resources, snapshot, {});
    // Assess
    expect(findings.map((finding) => `${finding.kind} ${finding.type}`)).toEqual([
      'new AWS::Cognito::UserPool',
    ]);
  });
});

describe('what the deploy check prints', () => {
  it('counts what a first deploy creates, per stack', () => {
    // Act
    const inventory = deployInventory(templates);
    // Assess
    expect(inventory.map((row) => row.stackName)).toEqual(templates.map((each) => each.stackName));
    const [root] = inventory;
    expect(root).toMatchObject({
      stackName: 'AssetRegistryStack',
      tables: 1,
      buckets: 4,
      queues: 4,
      restApis: 1,
    });
    expect(root!.keys).toBe(3);
    const functions = inventory.reduce((sum, row) => sum + row.functions, 0);
    const logGroups = inventory.reduce((sum, row) => sum + row.logGroups, 0);
    // Every function of ours has its own log group (CDK's console copier included); plus the API's two.
    expect(logGroups).toBe(functions + 2);
  });

  it('names what a destroy leaves behind: the stateful resources, but the exceptions', () => {
    // Act
    const retained = retainedOnDestroy(templates);
    // Assess
    const statefulRetained = resources.filter((resource) => resource.deletionPolicy === 'Retain');
    expect(retained.map((each) => `${each.stackName} ${each.logicalId}`)).toEqual(
      statefulRetained.map((each) => `${each.stackName} ${each.logicalId}`),
    );
  });
});
