/**
 * The handler extension of operations with a `form` row (a `multipart/form-data` body, or the
 * same fields as JSON): their handler files pass it to `httpHandler`, so that no other function
 * bundles the multipart reader.
 */
import { readFormBody } from './form-body.js';
import type { RequestExtensions } from './http-handler.js';

export const formRequests: RequestExtensions = { readFormBody };
