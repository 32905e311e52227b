/** The settings of the local identity provider that `npm start`'s environment gives. */

/** The provider's port; any free one when not set. */
export const IDP_PORT_ENVIRONMENT = 'IDP_PORT';
/** The ID tokens' lifetime in seconds (a browser test sees a token expire); one hour when not set. */
export const IDP_ID_TOKEN_TTL_ENVIRONMENT = 'IDP_ID_TOKEN_TTL_SECONDS';

const positiveInteger = (name: string, maximum: number): number | undefined => {
  const text = process.env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > maximum)
    throw new Error(`${name} must be a whole number from 1 to ${maximum}, not "${text}"`);
  return value;
};

/** The settings npm start's environment gives; a value that is not a whole number stops npm start. */
export const identityProviderEnvironment = () => ({
  port: positiveInteger(IDP_PORT_ENVIRONMENT, 65_535),
  idTokenTtlSeconds: positiveInteger(IDP_ID_TOKEN_TTL_ENVIRONMENT, 365 * 24 * 60 * 60),
});
