/**
 * The API's WAFv2 web ACL (regional), associated with the REST API's stage: what reaches the
 * stage throttle, the authorizer and the functions has passed per-source-address rate limits
 * and the AWS managed common rule set first (`docs/tenant-fairness.md`, "WAF").
 *
 * Rules, in order:
 * 1. `LoginRatePerIp`: requests to `POST /v2/wallets/login` above the login limit per source
 *    address in 5 minutes are blocked (guessing passwords, or keeping a wallet throttled).
 * 2. `RatePerIp`: any request above the general limit per source address in 5 minutes is blocked.
 * 3. `AwsCommonRuleSet`: `AWSManagedRulesCommonRuleSet`, its `SizeRestrictions_BODY` rule
 *    (bodies above 8 KB) only counted: it labels such requests instead of blocking them.
 * 4. `BodySizeOutsideUploads`: a request with that label is blocked unless its path is one of
 *    the operation table's upload routes (rows with a `form` or `streamedBody` file part), whose
 *    bodies are files of up to their own `maxFileBytes`.
 *
 * The limits come from context (`-c wafRateLimitPerIp=...`, `-c wafLoginRateLimitPerIp=...`).
 */
import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { Operation } from '../lambdas/operation-row.js';
import { operationList } from '../lambdas/operations.js';

/** Requests per source address in 5 minutes, any route (context `wafRateLimitPerIp`). */
export const DEFAULT_WAF_RATE_LIMIT_PER_IP = 3000;
/** Requests per source address in 5 minutes to the wallet login (context `wafLoginRateLimitPerIp`). */
export const DEFAULT_WAF_LOGIN_RATE_LIMIT_PER_IP = 100;
/** The lowest limit a rate-based rule takes. */
const RATE_LIMIT_MIN = 10;
/** The wallet login route the tighter rate rule watches. */
export const WALLET_LOGIN_PATH = '/v2/wallets/login';
/** The label the common rule set gives a body above 8 KB (counted, not blocked). */
export const BODY_SIZE_LABEL = 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body';

/** `{param}` segments become `[^/]+`; the match is anchored at the end, so any stage prefix passes. */
export const pathPattern = (path: string): string =>
  `${path.replace(/[.+*?^$()[\]|\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`;

/** The paths of the rows that take a file in their body (multipart or streamed). */
export function uploadPaths(
  rows: readonly Pick<Operation, 'path' | 'form' | 'streamedBody'>[] = operationList,
) {
  return [...new Set(rows.filter((row) => row.form ?? row.streamedBody).map((row) => row.path))].sort();
}

function rateLimitOf(scope: Construct, key: string, fallback: number): number {
  const given: unknown = scope.node.tryGetContext(key);
  const limit = given === undefined ? fallback : Number(given);
  if (!Number.isInteger(limit) || limit < RATE_LIMIT_MIN || limit > 2_000_000_000) {
    throw new Error(`${key} must be a whole number of requests from ${RATE_LIMIT_MIN}; got ${given}`);
  }
  return limit;
}

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

const uriPath = { uriPath: {} };
const noTransformation = [{ priority: 0, type: 'NONE' }];

export interface ApiWebAclProps {
  /** The REST API's stage the web ACL protects. */
  stage: Stage;
}

export class ApiWebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  /** The limits the rate rules apply, per source address in 5 minutes. */
  readonly rateLimitPerIp: number;
  readonly loginRateLimitPerIp: number;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    this.rateLimitPerIp = rateLimitOf(this, 'wafRateLimitPerIp', DEFAULT_WAF_RATE_LIMIT_PER_IP);
    this.loginRateLimitPerIp = rateLimitOf(
      this,
      'wafLoginRateLimitPerIp',
      DEFAULT_WAF_LOGIN_RATE_LIMIT_PER_IP,
    );

    const uploadRoutes: CfnWebACL.StatementProperty[] = uploadPaths().map((path) => ({
      regexMatchStatement: {
        fieldToMatch: uriPath,
        regexString: pathPattern(path),
        textTransformations: noTransformation,
      },
    }));
    const onUploadRoute: CfnWebACL.StatementProperty =
      uploadRoutes.length === 1 ? uploadRoutes[0]! : { orStatement: { statements: uploadRoutes } };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${Stack.of(this).stackName}-api`,
      description: 'Asset Registry API: per-IP rate limits and the AWS common rule set',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('AssetRegistryApi'),
      rules: [
        {
          name: 'LoginRatePerIp',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: this.loginRateLimitPerIp,
              scopeDownStatement: {
                andStatement: {
                  statements: [
                    {
                      byteMatchStatement: {
                        fieldToMatch: uriPath,
                        positionalConstraint: 'ENDS_WITH',
                        searchString: WALLET_LOGIN_PATH,
                        textTransformations: noTransformation,
                      },
                    },
                    {
                      byteMatchStatement: {
                        fieldToMatch: { method: {} },
                        positionalConstraint: 'EXACTLY',
                        searchString: 'POST',
                        textTransformations: noTransformation,
                      },
                    },
                  ],
                },
              },
            },
          },
          visibilityConfig: visibility('LoginRatePerIp'),
        },
        {
          name: 'RatePerIp',
          priority: 1,
          action: { block: {} },
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: this.rateLimitPerIp } },
          visibilityConfig: visibility('RatePerIp'),
        },
        {
          name: 'AwsCommonRuleSet',
          priority: 2,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility('AwsCommonRuleSet'),
        },
        {
          name: 'BodySizeOutsideUploads',
          priority: 3,
          action: { block: {} },
          statement: {
            andStatement: {
              statements: [
                { labelMatchStatement: { scope: 'LABEL', key: BODY_SIZE_LABEL } },
                { notStatement: { statement: onUploadRoute } },
              ],
            },
          },
          visibilityConfig: visibility('BodySizeOutsideUploads'),
        },
      ],
    });

    const association = new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    association.node.addDependency(props.stage);
  }
}
