/**
 * The API's WAFv2 web ACL (`lib/waf.ts`): associated with the REST API's stage; per-IP rate rules
 * (a general one, a tighter one on the wallet login); the AWS common rule set with its body-size
 * rule only counted, and blocked by a rule of ours everywhere but on the upload routes; the
 * limits tunable by context.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { operations } from '../../lambdas/operations.js';
import {
  ApiWebAcl,
  BODY_SIZE_LABEL,
  DEFAULT_WAF_LOGIN_RATE_LIMIT_PER_IP,
  DEFAULT_WAF_RATE_LIMIT_PER_IP,
  pathPattern,
  uploadPaths,
  WALLET_LOGIN_PATH,
} from '../../lib/waf.js';
import { synthesizeStack } from './synthesized-stack.js';

let template: Template;

beforeAll(() => {
  // Act: one synth of the whole stack for the file.
  template = synthesizeStack().template;
});

type Rule = { Name: string; Priority: number; Statement: Record<string, unknown>; [key: string]: unknown };

const rulesOf = (acl: Template): Rule[] => {
  const acls = Object.values(acl.findResources('AWS::WAFv2::WebACL'));
  expect(acls).toHaveLength(1);
  return (acls[0]!.Properties as { Rules: Rule[] }).Rules;
};
const ruleNamed = (name: string) => rulesOf(template).find((rule) => rule.Name === name);

/** A web ACL of its own on a small API, with the given context. */
function aclWithContext(context: Record<string, unknown>): Template {
  const stack = new Stack(new App({ context }), 'WafContext');
  const api = new RestApi(stack, 'Api');
  api.root.addMethod('GET');
  new ApiWebAcl(stack, 'WebAcl', { stage: api.deploymentStage });
  return Template.fromStack(stack);
}

describe('the web ACL', () => {
  it('is regional, allows by default, and is associated with the API stage', () => {
    // Assess
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      VisibilityConfig: Match.objectLike({ CloudWatchMetricsEnabled: true }),
    });
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    const [association] = Object.values(template.findResources('AWS::WAFv2::WebACLAssociation'));
    const arn = JSON.stringify(association!.Properties.ResourceArn);
    expect(arn).toContain(':apigateway:');
    expect(arn).toContain('/restapis/');
    expect(arn).toMatch(/\/stages\/|Stage/);
    expect(JSON.stringify(association!.Properties.WebACLArn)).toContain('Arn');
  });

  it('blocks a source address past the login limit on POST /v2/wallets/login, before the general limit', () => {
    // Assess
    expect(operations.walletLogin).toMatchObject({ method: 'POST', path: WALLET_LOGIN_PATH });
    const login = ruleNamed('LoginRatePerIp')!;
    const general = ruleNamed('RatePerIp')!;
    expect(login.Priority).toBeLessThan(general.Priority);
    expect(login).toMatchObject({
      Action: { Block: {} },
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: DEFAULT_WAF_LOGIN_RATE_LIMIT_PER_IP,
          ScopeDownStatement: {
            AndStatement: {
              Statements: [
                {
                  ByteMatchStatement: expect.objectContaining({
                    FieldToMatch: { UriPath: {} },
                    PositionalConstraint: 'ENDS_WITH',
                    SearchString: WALLET_LOGIN_PATH,
                  }),
                },
                {
                  ByteMatchStatement: expect.objectContaining({
                    FieldToMatch: { Method: {} },
                    SearchString: 'POST',
                  }),
                },
              ],
            },
          },
        },
      },
    });
    expect(general).toMatchObject({
      Action: { Block: {} },
      Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: DEFAULT_WAF_RATE_LIMIT_PER_IP } },
    });
  });

  it('runs the AWS common rule set with SizeRestrictions_BODY counted, not blocking', () => {
    // Assess
    expect(ruleNamed('AwsCommonRuleSet')).toMatchObject({
      OverrideAction: { None: {} },
      Statement: {
        ManagedRuleGroupStatement: {
          VendorName: 'AWS',
          Name: 'AWSManagedRulesCommonRuleSet',
          RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
        },
      },
    });
  });

  it('blocks bodies above 8 KB everywhere but on the upload routes of the operation table', () => {
    // Prepare
    const common = ruleNamed('AwsCommonRuleSet')!;
    // Assess
    expect(uploadPaths()).toEqual(
      [operations.uploadFile.path, operations.createImport.path, operations.updateSubcategory.path].sort(),
    );
    const rule = ruleNamed('BodySizeOutsideUploads')!;
    expect(rule.Priority).toBeGreaterThan(common.Priority);
    expect(rule).toMatchObject({
      Action: { Block: {} },
      Statement: {
        AndStatement: {
          Statements: [
            { LabelMatchStatement: { Scope: 'LABEL', Key: BODY_SIZE_LABEL } },
            {
              NotStatement: {
                Statement: {
                  OrStatement: {
                    Statements: uploadPaths().map((path) => ({
                      RegexMatchStatement: expect.objectContaining({
                        FieldToMatch: { UriPath: {} },
                        RegexString: pathPattern(path),
                      }),
                    })),
                  },
                },
              },
            },
          ],
        },
      },
    });
  });

  it('matches an upload path under any stage prefix, with any ids, and nothing longer', () => {
    // Prepare
    const pattern = new RegExp(pathPattern('/v2/objects/{objectId}/files'));
    // Assess
    expect(pattern.test('/prod/v2/objects/0193-ab/files')).toBe(true);
    expect(pattern.test('/v2/objects/EXT-1/files')).toBe(true);
    expect(pattern.test('/prod/v2/objects/a/b/files')).toBe(false);
    expect(pattern.test('/prod/v2/objects/a/files/extra')).toBe(false);
    for (const path of uploadPaths()) expect(pathPattern(path).length).toBeLessThanOrEqual(200);
  });
});

describe('the limits', () => {
  it('come from context wafRateLimitPerIp and wafLoginRateLimitPerIp', () => {
    // Act
    const rules = rulesOf(aclWithContext({ wafRateLimitPerIp: '5000', wafLoginRateLimitPerIp: 20 }));
    // Assess
    const limitOf = (name: string) =>
      (rules.find((rule) => rule.Name === name)!.Statement as { RateBasedStatement: { Limit: number } })
        .RateBasedStatement.Limit;
    expect(limitOf('RatePerIp')).toBe(5000);
    expect(limitOf('LoginRatePerIp')).toBe(20);
  });

  it('refuse at synth a limit WAF does not take', () => {
    // Assess
    expect(() => aclWithContext({ wafRateLimitPerIp: '5' })).toThrow(/wafRateLimitPerIp/);
    expect(() => aclWithContext({ wafLoginRateLimitPerIp: 'many' })).toThrow(/wafLoginRateLimitPerIp/);
  });
});
