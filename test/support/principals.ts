/** Principals for in-process handler tests: a fresh tenant id each, with chosen permissions. */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  APP_PERMISSIONS,
  COMPANY_PERMISSIONS,
  type Permission,
  type Principal,
} from '../../lambdas/shared/principal';

export function companyPrincipal(
  permissions: readonly Permission[] = COMPANY_PERMISSIONS,
  companyId: string = randomUUID(),
): Principal {
  return {
    type: 'company',
    tenantId: companyId,
    keyId: randomBytes(12).toString('hex'),
    permissions: new Set(permissions),
  };
}

export function appPrincipal(
  permissions: readonly Permission[] = APP_PERMISSIONS,
  appId: string = randomUUID(),
): Principal {
  return {
    type: 'app',
    tenantId: appId,
    keyId: randomBytes(12).toString('hex'),
    permissions: new Set(permissions),
  };
}
