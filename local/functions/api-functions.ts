/**
 * The API's functions as the local gateway runs them in `npm start`: the authorizer and each
 * operation's function invoked in local mode's Lambda service, from their bundles, by the names
 * the synthesized stack gives them.
 */
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import type { ApiFunctions } from '../local-gateway.js';
import type { LocalStack } from '../synthesized/local-stack.js';
import type { LocalFunctions } from './local-functions.js';

export function bundledApiFunctions(functions: LocalFunctions, api: LocalStack['api']): ApiFunctions {
  return {
    authorize: async (event) => (await functions.invoke(api.authorizer, event)) as APIGatewayAuthorizerResult,
    async invokeOperation(operation, event, bodyStream) {
      const functionName = api.operations[operation.id];
      if (!functionName) throw new Error(`The stack has no function for ${operation.id}`);
      return (await functions.invoke(functionName, event, { bodyStream })) as APIGatewayProxyResult;
    },
    // A new environment starts with an empty cache: the authorizer's are discarded.
    flushAuthorizer: () => functions.discardEnvironments(api.authorizer),
  };
}
