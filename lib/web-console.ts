/**
 * The web console in AWS: a private S3 bucket served by CloudFront through origin access
 * control (the bucket is never public), with security headers and a content security policy
 * that lets the page call only the API (and the people's sign-in, when the stack has one). The
 * console's origin is what the API's CORS allows. The files themselves are copied by
 * `WebConsoleFilesStack` (a stack of its own, because copying needs CDK's custom-resource
 * function, which the main stack keeps out).
 */
import {
  Aspects,
  CfnResource,
  Duration,
  Fn,
  type IAspect,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { rules } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import { buildConsole, CONSOLE_CONFIG_FILE } from '../console/build.js';
import { retainedLogGroup } from './log-retention.js';
import type { ConsoleSignIn } from './people-sign-in.js';
import { applyStatefulResourcePolicy, bucketRemovalOf } from './stateful-resources.js';

export interface WebConsoleProps {
  /** `https://<api id>.execute-api.<region>.<suffix>`: the API's origin, which the page calls. */
  apiOrigin: string;
  /** The origins the page calls to sign people in (`lib/people-sign-in.ts`), when it does. */
  signInOrigins?: readonly string[];
  accessLogsBucket: IBucket;
}

/** The origin of a REST API's default endpoint. */
export const apiOriginOf = (restApi: RestApi): string =>
  `https://${restApi.restApiId}.execute-api.${Stack.of(restApi).region}.${Stack.of(restApi).urlSuffix}`;

export class WebConsole extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>`: the origin the API's CORS must allow. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: WebConsoleProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Its files are rebuilt by every deploy, but a bucket with files cannot be deleted without
      // emptying it: kept like every bucket, emptied and deleted in trial mode.
      ...bucketRemovalOf(this),
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'web-console/',
    });
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: `default-src 'self'; connect-src ${["'self'", props.apiOrigin, ...(props.signInOrigins ?? [])].join(' ')}; img-src 'self' data: blob:; frame-ancestors 'none'; base-uri 'none'; object-src 'none'; form-action 'self'`,
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Asset Registry web console',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
      },
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'The console is a static page that holds no data; who may read the registry is decided by the API key, so no country is blocked.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves three static files and holds no data; every call the page makes goes to the API, behind its own web ACL (lib/waf.ts). A CloudFront web ACL would have to be created in us-east-1, outside this stack (one can be attached for a custom deployment).',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'CloudFront standard logs need an ACL-enabled bucket; the origin bucket logs every read of the console files to the access-logs bucket instead.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default cloudfront.net certificate fixes the minimum TLS version; a custom domain with its own certificate can require TLS 1.2.',
      },
    );
  }
}

export interface WebConsoleFilesStackProps extends StackProps {
  webConsole: WebConsole;
  restApi: RestApi;
  /** How the console signs people in (`lib/people-sign-in.ts`), when the stack has a user pool. */
  signIn?: ConsoleSignIn;
}

/**
 * Copies the built console and its `config.json` (the API's URL, and the people's sign-in when
 * the stack has a user pool) into the console bucket, and invalidates CloudFront's copies.
 * Deployed after the main stack (`cdk deploy --all`).
 */
export class WebConsoleFilesStack extends Stack {
  constructor(scope: Construct, id: string, props: WebConsoleFilesStackProps) {
    super(scope, id, props);
    applyStatefulResourcePolicy(this);
    // An export with a fixed name, so that the deployment role's wildcard findings name it
    // the same way at every synth (an automatic cross-stack reference is named only later).
    const mainStack = Stack.of(props.webConsole);
    const bucketArn = mainStack.exportValue(props.webConsole.bucket.bucketArn, {
      name: `${mainStack.stackName}-WebConsoleBucketArn`,
    });
    const deployment = new BucketDeployment(this, 'Files', {
      destinationBucket: Bucket.fromBucketArn(this, 'ConsoleBucket', bucketArn),
      sources: [
        Source.asset(buildConsole()),
        Source.jsonData(CONSOLE_CONFIG_FILE, {
          apiBaseUrl: props.restApi.url,
          ...(props.signIn && { signIn: props.signIn }),
        }),
      ],
      distribution: props.webConsole.distribution,
      distributionPaths: ['/*'],
      // With the stack's retention, instead of the never-expiring group Lambda would create.
      logGroup: retainedLogGroup(this, 'FilesCopyLogs'),
    });
    // CDK's own function (one per stack, beside the deployment) copies the files.
    const copier = this.node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (!copier) throw new Error("CDK's BucketDeployment function was not found");
    Validations.of(copier).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's BucketDeployment function uses AWSLambdaBasicExecutionRole for its own logs; the role belongs to CDK's construct, not to our code.",
      },
      {
        id: 'AwsSolutions-L1',
        reason:
          "CDK's BucketDeployment function runs on the Python runtime that this aws-cdk-lib version pins; it moves with CDK upgrades.",
      },
    );
    Aspects.of(this).add(new AcknowledgeWildcards(deployment.handlerRole));
  }
}

/**
 * Acknowledges each wildcard (cdk-nag IAM5 finding) of one role's policies: CDK's deployment
 * role reads every key of the asset and writes every key of the console bucket (and may
 * invalidate the distribution), so each of its wildcards is known and intended. The findings
 * are computed by cdk-nag's own rule, so a new wildcard in a CDK upgrade is acknowledged with
 * the same reason rather than silently widened elsewhere.
 */
class AcknowledgeWildcards implements IAspect {
  constructor(private readonly role: IConstruct) {}

  visit(node: IConstruct): void {
    if (!CfnResource.isCfnResource(node) || !node.node.path.startsWith(`${this.role.node.path}/`)) return;
    const findings = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(findings)) return;
    Validations.of(node).acknowledge(
      ...findings.map((finding) => ({
        id: `AwsSolutions-IAM5[${finding}]`,
        reason:
          "CDK's BucketDeployment copies every file of the console's asset into the console bucket and invalidates the distribution: wildcards over both buckets' keys.",
      })),
    );
  }
}

/** The console's URL, as the stack output gives it. */
export const consoleUrlOf = (webConsole: WebConsole): string => Fn.join('', [webConsole.origin, '/']);
