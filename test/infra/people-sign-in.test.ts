/**
 * People's sign-in in AWS (`lib/people-sign-in.ts`): with `-c identity=cognito` a user pool whose
 * groups are the roles, a hosted sign-in domain, and one public app client for the console
 * (authorization code, the console's URL as its only callback); the outputs that register the
 * pool's issuer for a company; the console's CSP and `config.json`. Without the context, nothing
 * of Cognito; another value stops the synth.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { ROLE_NAMES } from '../../lambdas/shared/roles.js';
import type { AssetRegistryStack } from '../../lib/asset-registry-stack.js';
import {
  COGNITO_ROLES_CLAIM,
  DOMAIN_PREFIX_CONTEXT,
  FEDERATED_PROVIDERS_CONTEXT,
  IDENTITY_CONTEXT,
  PeopleSignIn,
} from '../../lib/people-sign-in.js';
import { applyStatefulResourcePolicy } from '../../lib/stateful-resources.js';
import { cdkJsonContext } from '../../lib/synthesized-stack.js';
import { buildStacks } from '../../scripts/deploy-check/synthesized-templates.js';
import { validateTemplates } from '../../scripts/deploy-check/template-validation.js';
import { synthesizeStack } from './synthesized-stack.js';

type Resources = Record<
  string,
  { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string }
>;

const resourcesOf = (template: Template, type: string) =>
  Object.values(template.findResources(type) as Resources);

describe('with -c identity=cognito', () => {
  let main: AssetRegistryStack;
  let consoleFiles: Stack;
  let template: Template;
  let consoleUrl: unknown;

  beforeAll(() => {
    // Act: the app as `cdk deploy --all` builds it, synthesized once.
    const app = new App({
      context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], [IDENTITY_CONTEXT]: 'cognito' },
    });
    const stacks = buildStacks(app);
    main = stacks[0] as AssetRegistryStack;
    consoleFiles = stacks[1]!;
    app.synth();
    template = Template.fromStack(main);
    consoleUrl = template.toJSON().Outputs.ConsoleUrl.Value;
  });

  it('creates one user pool: invited people only, email sign-in, a strong password, optional TOTP, kept', () => {
    // Act
    const pools = template.findResources('AWS::Cognito::UserPool') as Resources;
    // Assess
    expect(Object.keys(pools)).toHaveLength(1);
    const [pool] = Object.values(pools);
    expect(pool!.DeletionPolicy).toBe('Retain');
    expect(pool!.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      Policies: {
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      DeletionProtection: 'ACTIVE',
      UserPoolTier: 'ESSENTIALS',
    });
  });

  it('has one group per role, named after it (the ID token lists them in cognito:groups)', () => {
    // Act
    const groups = resourcesOf(template, 'AWS::Cognito::UserPoolGroup').map(
      (group) => group.Properties.GroupName,
    );
    // Assess
    expect(groups.sort()).toEqual([...ROLE_NAMES].sort());
  });

  it("gives the console one public client: code flow only, no secret, the console's URL as the only callback", () => {
    // Act
    const clients = resourcesOf(template, 'AWS::Cognito::UserPoolClient');
    // Assess
    expect(clients).toHaveLength(1);
    const client = clients[0]!.Properties;
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(client.AllowedOAuthScopes).toEqual(['openid', 'email', 'profile']);
    expect(client.CallbackURLs).toEqual([consoleUrl]);
    expect(client.LogoutURLs).toEqual([consoleUrl]);
    expect(client).toMatchObject({
      IdTokenValidity: 60,
      TokenValidityUnits: { IdToken: 'minutes' },
      PreventUserExistenceErrors: 'ENABLED',
      SupportedIdentityProviders: ['COGNITO'],
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
  });

  it('gives the hosted sign-in a domain prefix made of the stack name and the account', () => {
    // Assess
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: { 'Fn::Join': ['', [`${main.stackName.toLowerCase()}-`, { Ref: 'AWS::AccountId' }]] },
    });
  });

  it('outputs the issuer, the audience, the roles claim, the sign-in domain and the command that registers them', () => {
    // Prepare
    const poolId = main.getLogicalId(main.peopleSignIn!.userPool.node.defaultChild as never);
    const clientRef = { Ref: main.getLogicalId(main.peopleSignIn!.consoleClient.node.defaultChild as never) };
    const issuer = [
      'https://cognito-idp.',
      { Ref: 'AWS::Region' },
      '.',
      { Ref: 'AWS::URLSuffix' },
      '/',
      { Ref: poolId },
    ];
    // Assess
    template.hasOutput('IdentityIssuer', { Value: { 'Fn::Join': ['', issuer] } });
    template.hasOutput('IdentityAudience', { Value: clientRef });
    template.hasOutput('IdentityRolesClaim', { Value: COGNITO_ROLES_CLAIM });
    template.hasOutput('IdentitySignInDomain', {
      Value: { 'Fn::Join': ['', Match.arrayWith(['.auth.', { Ref: 'AWS::Region' }, '.amazoncognito.com'])] },
    });
    const command = JSON.stringify(template.toJSON().Outputs.RegisterIdentityProviderCommand.Value);
    expect(command).toContain('add-identity-provider --company <company id> --issuer https://cognito-idp.');
    expect(command).toContain(JSON.stringify(clientRef));
    expect(command).toContain(`--roles-claim ${COGNITO_ROLES_CLAIM}`);
  });

  it("lets the console's page call the pool's issuer and hosted domain (CSP connect-src)", () => {
    // Act
    const [policy] = resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const csp = JSON.stringify(policy!.Properties);
    // Assess
    expect(csp).toMatch(/connect-src 'self' https:\/\/[^;]*\.execute-api\.[^;]* https:\/\/cognito-idp\./);
    expect(csp).toContain('.auth.');
    expect(csp).toContain('.amazoncognito.com; img-src');
  });

  it("writes the sign-in (issuer and client id) into the console's config.json", () => {
    // Act
    const [deployment] = resourcesOf(Template.fromStack(consoleFiles), 'Custom::CDKBucketDeployment');
    const markers = JSON.stringify(deployment!.Properties.SourceMarkers);
    // Assess: the values come from the main stack's outputs, resolved at deploy time.
    expect(markers).toContain('"OutputName":"PublishOutputRefPeopleSignInUserPool');
    expect(markers).toContain('"OutputName":"PublishOutputRefPeopleSignInUserPoolConsoleClient');
  });

  it('synthesizes without warnings, and the templates pass the CloudFormation schemas', () => {
    // Act
    const warnings = [main, consoleFiles].flatMap((stack) =>
      Annotations.fromStack(stack).findWarning('*', Match.anyValue()),
    );
    const findings = validateTemplates(
      [main, consoleFiles].map((stack) => ({
        stackName: stack.stackName,
        template: Template.fromStack(stack).toJSON() as never,
      })),
    );
    // Assess
    expect(warnings.map((warning) => String(warning.entry.data))).toEqual([]);
    expect(findings.map((finding) => `${finding.logicalId} ${finding.path}: ${finding.message}`)).toEqual([]);
  });
});

describe('without the identity context', () => {
  it('synthesizes no Cognito resource and no identity output', () => {
    // Act
    const { stack, template } = synthesizeStack();
    // Assess
    const types = Object.values(template.toJSON().Resources as Resources).map((resource) => resource.Type);
    expect(types.filter((type) => type.startsWith('AWS::Cognito::'))).toEqual([]);
    expect(Object.keys(template.toJSON().Outputs).filter((name) => name.startsWith('Identity'))).toEqual([]);
    expect(stack.peopleSignIn).toBeUndefined();
  });
});

it('refuses another value of identity, naming the allowed ones', () => {
  // Act / Assess
  expect(() => synthesizeStack({ [IDENTITY_CONTEXT]: 'okta' })).toThrow(
    /Context identity must be one of cognito .*got "okta"/,
  );
});

describe('the pool on its own', () => {
  const CONSOLE_URL = 'https://d111111abcdef8.cloudfront.net/';
  const poolIn = (context: Record<string, unknown>, stackName = 'AssetRegistryStack') => {
    const stack = new Stack(new App({ context }), stackName, {
      env: { account: '123456789012', region: 'eu-west-1' },
    });
    const signIn = new PeopleSignIn(stack, 'PeopleSignIn', { consoleUrl: CONSOLE_URL });
    applyStatefulResourcePolicy(stack);
    return { signIn, template: Template.fromStack(stack) };
  };

  it('is deletable in trial mode, like every stateful resource', () => {
    // Act
    const { template } = poolIn({ trial: 'true' });
    // Assess
    template.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtection: 'INACTIVE' }),
    });
  });

  it('takes its domain prefix from context, else the stack name and the account', () => {
    // Act
    const given = poolIn({ [DOMAIN_PREFIX_CONTEXT]: 'acme-assets' }).template;
    const derived = poolIn({}, 'Registry-Prod').template;
    // Assess
    given.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-assets' });
    derived.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'registry-prod-123456789012' });
  });

  it('refuses a prefix Cognito would refuse, saying which rule and how to choose another', () => {
    // Act / Assess
    expect(() => poolIn({ [DOMAIN_PREFIX_CONTEXT]: 'Acme Assets' })).toThrow(
      /cognitoDomainPrefix gives the Cognito domain prefix "Acme Assets": it must be 1 to 63 lowercase/,
    );
    expect(() => poolIn({}, 'AwsRegistry')).toThrow(/the stack name \(set cognitoDomainPrefix instead\)/);
  });

  it('offers the federated providers named in context beside its own accounts', () => {
    // Act
    const { template } = poolIn({ [FEDERATED_PROVIDERS_CONTEXT]: 'AcmeOidc, AcmeSaml' });
    // Assess
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: ['COGNITO', 'AcmeOidc', 'AcmeSaml'],
    });
  });

  it('gives the console its issuer and client id, and the origins it calls', () => {
    // Act
    const { signIn } = poolIn({});
    const stack = Stack.of(signIn);
    // Assess
    expect(stack.resolve(signIn.consoleSignIn)).toEqual({
      issuer: {
        'Fn::Join': [
          '',
          ['https://cognito-idp.eu-west-1.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: expect.any(String) }],
        ],
      },
      clientId: { Ref: expect.stringMatching(/ConsoleClient/) },
      signOutUrl: {
        'Fn::Join': [
          '',
          [
            'https://',
            { Ref: expect.stringMatching(/HostedSignIn/) },
            '.auth.eu-west-1.amazoncognito.com/logout',
          ],
        ],
      },
    });
    expect(stack.resolve(signIn.connectOrigins)).toEqual([
      { 'Fn::Join': ['', ['https://cognito-idp.eu-west-1.', { Ref: 'AWS::URLSuffix' }]] },
      {
        'Fn::Join': [
          '',
          ['https://', { Ref: expect.stringMatching(/HostedSignIn/) }, '.auth.eu-west-1.amazoncognito.com'],
        ],
      },
    ]);
  });
});
