/**
 * The web console in AWS: a private bucket read only by its CloudFront distribution (origin
 * access control), HTTPS with security headers and a content security policy that allows
 * calls to this API only, the console URL as an output, and the files stack that copies the
 * build and its config.json into the bucket, cdk-nag clean.
 */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AssetRegistryStack } from '../../lib/asset-registry-stack.js';
import { cdkJsonContext } from '../../lib/synthesized-stack.js';
import { WebConsoleFilesStack } from '../../lib/web-console.js';
import { type SynthesizedStack, synthesizeStack } from './synthesized-stack.js';

describe('the web console in the main stack', () => {
  let synthesized: SynthesizedStack;
  let template: Template;
  beforeAll(() => {
    synthesized = synthesizeStack();
    template = synthesized.template;
  });

  it('keeps its files in a private, encrypted bucket whose access is logged', () => {
    const bucketId = synthesized.logicalIdOf(synthesized.stack.webConsole.bucket);
    const accessLogsBucketId = synthesized.logicalIdOf(synthesized.stack.dataStore.accessLogsBucket);
    expect(template.toJSON().Resources[bucketId].Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LoggingConfiguration: {
        DestinationBucketName: { Ref: accessLogsBucketId },
        LogFilePrefix: 'web-console/',
      },
    });
  });

  it('lets only its CloudFront distribution read the bucket, through origin access control', () => {
    const bucketId = synthesized.logicalIdOf(synthesized.stack.webConsole.bucket);
    const distributionId = synthesized.logicalIdOf(synthesized.stack.webConsole.distribution);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    const policies = template.findResources('AWS::S3::BucketPolicy', {
      Properties: { Bucket: { Ref: bucketId } },
    });
    const statements = Object.values(policies).flatMap(
      (policy) =>
        (policy as { Properties: { PolicyDocument: { Statement: Record<string, unknown>[] } } }).Properties
          .PolicyDocument.Statement,
    );
    const allows = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allows).toEqual([
      expect.objectContaining({
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Condition: {
          StringEquals: {
            'AWS:SourceArn': expect.objectContaining({
              'Fn::Join': ['', expect.arrayContaining([{ Ref: distributionId }])],
            }),
          },
        },
      }),
    ]);
  });

  it('serves HTTPS only, with a content security policy that allows calls to this API alone', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
      }),
    });
    const [policy] = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy')) as {
      Properties: {
        ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Record<string, Record<string, unknown>> };
      };
    }[];
    const headers = policy!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const csp = JSON.stringify(headers.ContentSecurityPolicy);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`{"Ref":"${synthesized.logicalIdOf(synthesized.stack.api.restApi)}"}`);
    expect(csp).toContain('.execute-api.');
    expect(headers.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
    expect(headers.ReferrerPolicy).toMatchObject({ ReferrerPolicy: 'no-referrer' });
    expect(headers.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000 });
  });

  it("lets the API's CORS allow the console's origin (and no other by default)", () => {
    const distributionDomain = JSON.stringify({
      'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.webConsole.distribution), 'DomainName'],
    });
    const preflights = Object.values(
      template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } }),
    );
    expect(preflights.length).toBeGreaterThan(0);
    for (const preflight of preflights) expect(JSON.stringify(preflight)).toContain(distributionDomain);
  });

  it('gives the console URL as a stack output', () => {
    const distributionId = synthesized.logicalIdOf(synthesized.stack.webConsole.distribution);
    template.hasOutput('ConsoleUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/']] },
    });
  });
});

describe('the web console files stack', () => {
  let app: App;
  let filesStack: WebConsoleFilesStack;
  let mainStack: AssetRegistryStack;
  beforeAll(() => {
    app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    mainStack = new AssetRegistryStack(app, 'ConsoleMain');
    filesStack = new WebConsoleFilesStack(app, 'ConsoleMain-ConsoleFiles', {
      webConsole: mainStack.webConsole,
      restApi: mainStack.api.restApi,
    });
    app.synth(); // runs the aspects, as `cdk synth` does before the checks
  });

  it('copies the build and config.json into the console bucket and invalidates the distribution', () => {
    const template = Template.fromStack(filesStack);
    const [deployment] = Object.values(template.findResources('Custom::CDKBucketDeployment')) as {
      Properties: Record<string, unknown>;
    }[];
    expect(deployment!.Properties.SourceObjectKeys).toHaveLength(2);
    // The bucket by its named export; the rest by weak references (cdk.json), read from the main stack's outputs.
    expect(JSON.stringify(deployment!.Properties.DestinationBucketName)).toContain('Fn::ImportValue');
    expect(JSON.stringify(deployment!.Properties.DistributionId)).toContain('Fn::GetStackOutput');
    expect(deployment!.Properties.DistributionPaths).toEqual(['/*']);
    // config.json carries the API's URL, resolved at deploy time
    expect(JSON.stringify(deployment!.Properties.SourceMarkers)).toContain('PublishOutputRefApiRestApi');
  });

  it('leaves no cdk-nag finding open, and acknowledges only the CDK deployment role', () => {
    const report = new AwsSolutionsChecks().validateScope(filesStack);
    expect(report.violations.map((violation) => violation.ruleName)).toEqual([]);
  });
});
