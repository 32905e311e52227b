/**
 * How to sign in to the local console as a demo person: what npm start prints and what the admin
 * CLI's `list-identity-providers` adds to the local stack's own provider.
 */
import { CONSOLE_PATH } from '../console-files.js';
import { DEMO_COMPANY_NAME, DEMO_PEOPLE } from './demo-people.js';

export interface SignInInstructions {
  consoleUrl: string;
  people: { login: string; name: string; role: string }[];
  /** The file that holds the people's one password (never the password itself). */
  passwordFile: string;
}

export const signInInstructions = (gatewayUrl: string, passwordFile: string): SignInInstructions => ({
  consoleUrl: `${gatewayUrl}${CONSOLE_PATH}`,
  people: DEMO_PEOPLE.map(({ login, name, role }) => ({ login, name, role })),
  passwordFile,
});

/** npm start's lines. */
export function signInLines(issuer: string, companyId: string, instructions: SignInInstructions): string[] {
  const widest = (field: 'login' | 'role') =>
    Math.max(...instructions.people.map((each) => each[field].length));
  return [
    `Identity provider: ${issuer}, for the company "${DEMO_COMPANY_NAME}" (${companyId}); sign in to the console as:`,
    ...instructions.people.map(
      (each) => `  ${each.login.padEnd(widest('login'))}  ${each.role.padEnd(widest('role'))}  ${each.name}`,
    ),
    `  with the password in ${instructions.passwordFile}`,
  ];
}
