import { describeCaller } from '#domain/identity/caller-service.js';
import { httpHandler } from '#http/http-handler.js';
import { identityOperations } from '../../operations/identity.js';

export const handler = httpHandler(identityOperations.getMe, async ({ principal }) => ({
  body: await describeCaller(principal),
}));
