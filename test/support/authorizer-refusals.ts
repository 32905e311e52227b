/** What the REQUEST authorizer returns for a credential it refuses, for the authorizer tests. */
import { CREDENTIAL_REFUSALS, REFUSAL_REASON_CONTEXT_KEY } from '../../lib/api-gateway-settings';

/** A Deny of the whole API whose context names the reason (the 401's message). */
export const refusedFor = (reason: keyof typeof CREDENTIAL_REFUSALS) => ({
  principalId: 'refused',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [expect.objectContaining({ Effect: 'Deny', Action: 'execute-api:Invoke' })],
  },
  context: { [REFUSAL_REASON_CONTEXT_KEY]: CREDENTIAL_REFUSALS[reason] },
});
