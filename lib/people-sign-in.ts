/**
 * People's sign-in in AWS, optional: a Cognito user pool per stack (`cdk deploy -c identity=cognito`),
 * whose groups are the roles (`lambdas/shared/roles.ts`), with a hosted sign-in domain and an app
 * client for the web console (authorization code with PKCE, the console's URL as its only
 * callback). The pool's issuer is registered for a company like any other identity provider
 * (docs/people-sign-in.md, "Cognito in AWS"). Without the context, nothing of this is synthesized.
 */
import { CfnOutput, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  FeaturePlan,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ROLE_NAMES } from '../lambdas/shared/roles.js';

/** The context key that chooses how people sign in: `-c identity=cognito`. */
export const IDENTITY_CONTEXT = 'identity';
/** The values `identity` takes. */
const IDENTITY_OPTIONS = ['cognito'] as const;
/** One value of `identity`. */
export type IdentityOption = (typeof IDENTITY_OPTIONS)[number];
/** The context key of the hosted sign-in domain's prefix (else the stack's name and account). */
export const DOMAIN_PREFIX_CONTEXT = 'cognitoDomainPrefix';
/**
 * The context key naming identity providers (OIDC or SAML) added to the pool outside this stack,
 * comma-separated: the console's client offers them beside the pool's own accounts. Listed here
 * because the client's providers are a property of the stack: one enabled by hand would be
 * dropped by the next deploy that updates the client.
 */
export const FEDERATED_PROVIDERS_CONTEXT = 'cognitoIdentityProviders';
/** The ID token claim in which Cognito lists the person's groups: their roles here. */
export const COGNITO_ROLES_CLAIM = 'cognito:groups';

/** A Cognito domain prefix: lowercase letters, digits and hyphens, without a reserved word. */
const DOMAIN_PREFIX_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const RESERVED_IN_DOMAIN_PREFIX = /aws|amazon|cognito/;
/** Room left for `-<12-digit account>` within the 63 characters of a prefix. */
const STACK_PART_MAX_LENGTH = 63 - 13;

/** The sign-in the console reads from its `config.json` (`console/src/config.ts`). */
export interface ConsoleSignIn {
  issuer: string;
  clientId: string;
  /**
   * Cognito's `/logout` endpoint: its discovery document names no `end_session_endpoint`, so the
   * console is told where signing out ends the hosted pages' session.
   */
  signOutUrl: string;
}

export interface PeopleSignInProps {
  /** `https://<distribution domain>/`: the page the console is served at, its only callback. */
  consoleUrl: string;
}

export class PeopleSignIn extends Construct {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;
  readonly consoleClient: UserPoolClient;
  /** `https://cognito-idp.<region>.<suffix>/<pool id>`: the `iss` of the pool's tokens. */
  readonly issuer: string;
  /** What the console's `config.json` carries to sign people in. */
  readonly consoleSignIn: ConsoleSignIn;
  /** The origins the console calls to sign in: discovery and keys (issuer), tokens (domain). */
  readonly connectOrigins: readonly string[];

  constructor(scope: Construct, id: string, props: PeopleSignInProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.userPool = new UserPool(this, 'UserPool', {
      // People are invited by an administrator (docs/people-sign-in.md), never sign themselves up.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
        passwordHistorySize: 5,
      },
      mfa: Mfa.OPTIONAL,
      // TOTP only: SMS would need an SNS role and a spending limit.
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Threat protection needs the Plus plan, billed per active user: Essentials is the
      // default plan of a new pool, and what the classic hosted pages and federation need.
      featurePlan: FeaturePlan.ESSENTIALS,
      // Retention and deletion protection come from lib/stateful-resources.ts, like the table's.
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          "MFA is optional so that an invited person can sign in once and enrol a TOTP app on the hosted pages; people federated from their company's provider get that provider's MFA, which this setting does not govern. Requiring it is one property (mfa) once the pool's own people have enrolled.",
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus plan (threat protection: adaptive authentication, compromised-credential checks) is billed per monthly active user above Essentials; the pool stays on Essentials, with its strong password policy, password history and optional TOTP, and an operator may move it to Plus.',
      },
    );

    // The ID token's `cognito:groups` lists a person's groups: one group per role, named after it.
    // The lowest precedence number wins Cognito's own choice, so the widest role comes first.
    const widestFirst = [...ROLE_NAMES].reverse();
    for (const [precedence, role] of widestFirst.entries()) {
      new CfnUserPoolGroup(this, `Group-${role}`, {
        userPoolId: this.userPool.userPoolId,
        groupName: role,
        description: `Asset Registry role "${role}" (lambdas/shared/roles.ts)`,
        precedence,
      });
    }

    this.domain = this.userPool.addDomain('HostedSignIn', {
      cognitoDomain: { domainPrefix: domainPrefixOf(this) },
    });

    this.consoleClient = this.userPool.addClient('ConsoleClient', {
      userPoolClientName: 'asset-registry-console',
      // A page cannot keep a secret: a public client, whose code exchange PKCE protects.
      generateSecret: false,
      // The console signs in only through the hosted pages. Naming one flow keeps Cognito from its
      // default set (which adds custom auth); SRP stays, as the hosted pages' own password check.
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [props.consoleUrl],
        logoutUrls: [props.consoleUrl],
      },
      supportedIdentityProviders: [
        UserPoolClientIdentityProvider.COGNITO,
        ...federatedProvidersOf(this).map((name) => UserPoolClientIdentityProvider.custom(name)),
      ],
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // Cognito always answers one; the console drops it and keeps only the ID token, in memory.
      refreshTokenValidity: Duration.hours(12),
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });

    this.issuer = `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`;
    this.consoleSignIn = {
      issuer: this.issuer,
      clientId: this.consoleClient.userPoolClientId,
      signOutUrl: `${this.domain.baseUrl()}/logout`,
    };
    this.connectOrigins = [`https://cognito-idp.${stack.region}.${stack.urlSuffix}`, this.domain.baseUrl()];

    // Stack-level outputs, so that their names in `--outputs-file` carry no construct path.
    new CfnOutput(stack, 'IdentityIssuer', {
      description: 'Issuer of the user pool: register it for a company (add-identity-provider --issuer)',
      value: this.issuer,
    });
    new CfnOutput(stack, 'IdentityAudience', {
      description: "The console's app client id: the ID tokens' audience (--audience)",
      value: this.consoleClient.userPoolClientId,
    });
    new CfnOutput(stack, 'IdentityRolesClaim', {
      description: 'The ID token claim that lists the roles, as group names (--roles-claim)',
      value: COGNITO_ROLES_CLAIM,
    });
    new CfnOutput(stack, 'IdentitySignInDomain', {
      description: 'The hosted sign-in pages of the user pool',
      value: this.domain.baseUrl(),
    });
    new CfnOutput(stack, 'RegisterIdentityProviderCommand', {
      description: "Registers the pool for a company: put the company's id in",
      value: `npm run --silent admin -- add-identity-provider --company <company id> --issuer ${this.issuer} --audience ${this.consoleClient.userPoolClientId} --roles-claim ${COGNITO_ROLES_CLAIM}`,
    });
  }
}

/**
 * The people's sign-in the context asks for: a {@link PeopleSignIn} with `-c identity=cognito`,
 * none without `identity`; any other value is an error that names the allowed ones.
 *
 * @example
 * const signIn = peopleSignInOf(this, { consoleUrl }); // undefined unless -c identity=cognito
 */
export function peopleSignInOf(scope: Construct, props: PeopleSignInProps): PeopleSignIn | undefined {
  const identity: unknown = scope.node.tryGetContext(IDENTITY_CONTEXT);
  if (identity === undefined) return undefined;
  if (identity !== 'cognito') {
    throw new Error(
      `Context ${IDENTITY_CONTEXT} must be one of ${IDENTITY_OPTIONS.join(', ')} (or absent: no sign-in for people); got ${JSON.stringify(identity)}`,
    );
  }
  return new PeopleSignIn(scope, 'PeopleSignIn', props);
}

/** Context `cognitoDomainPrefix`, else `<stack name, lowercase>-<account>`, each checked as Cognito will. */
function domainPrefixOf(scope: Construct): string {
  const given: unknown = scope.node.tryGetContext(DOMAIN_PREFIX_CONTEXT);
  if (given !== undefined) return checkedDomainPrefix(String(given), DOMAIN_PREFIX_CONTEXT);
  const stack = Stack.of(scope);
  // A stack name is letters, digits and hyphens already: lowercase, and short enough.
  const stackPart = stack.stackName.toLowerCase().slice(0, STACK_PART_MAX_LENGTH).replace(/-+$/, '');
  checkedDomainPrefix(stackPart, `the stack name (set ${DOMAIN_PREFIX_CONTEXT} instead)`);
  // The account makes the prefix unique across accounts; it is a token unless the stack's env names it.
  return Token.isUnresolved(stack.account)
    ? `${stackPart}-${stack.account}`
    : checkedDomainPrefix(`${stackPart}-${stack.account}`, 'the domain prefix');
}

function checkedDomainPrefix(prefix: string, source: string): string {
  if (!DOMAIN_PREFIX_PATTERN.test(prefix) || RESERVED_IN_DOMAIN_PREFIX.test(prefix)) {
    throw new Error(
      `${source} gives the Cognito domain prefix "${prefix}": it must be 1 to 63 lowercase letters, digits or hyphens, neither starting nor ending with a hyphen, without "aws", "amazon" or "cognito"`,
    );
  }
  return prefix;
}

/** The names in context `cognitoIdentityProviders` (comma-separated, or a list in cdk.json). */
function federatedProvidersOf(scope: Construct): string[] {
  const value: unknown = scope.node.tryGetContext(FEDERATED_PROVIDERS_CONTEXT);
  if (value === undefined) return [];
  const names = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return names.map((name) => name.trim()).filter((name) => name.length > 0);
}
