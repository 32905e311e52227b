/**
 * The local identity provider's pages: the sign-in form (login and password) and the error
 * page. Everything they show that comes from a request or a file is HTML-escaped; the only
 * style is inline, allowed by its hash in the page's Content-Security-Policy.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { DEMO_PEOPLE, type DemoPerson, demoPersonByLogin } from './demo-people.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element or a quoted attribute. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? '');

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}' +
  'label{display:block;margin-top:1rem}input{width:100%;padding:.4rem;box-sizing:border-box}' +
  'button{margin-top:1.2rem;padding:.5rem 1.2rem}.error{color:#a00}td{padding-right:1rem}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The pages' policy: no script, only the inline style, and forms posted to the provider itself.
 * A form's redirects must reach the console too (browsers check `form-action` along them).
 */
export const pageSecurityHeaders = (consoleOrigins: readonly string[]): Record<string, string> => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self' ${consoleOrigins.join(' ')}; frame-ancestors 'none'; base-uri 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});

/** The sign-in and sign-out pages' title: their buttons are the only "Sign in" or "Sign out" on them. */
const PROVIDER_TITLE = 'Asset Registry: local identity provider';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

export interface SignInForm {
  /** Where the form posts to. */
  action: string;
  /** The login typed before, shown again after a refusal. */
  login?: string;
  error?: string;
}

/** The sign-in page: the form, and the demo people to pick from (the password is in a file). */
export function signInPage(form: SignInForm): string {
  const people = DEMO_PEOPLE.map(
    (each) =>
      `<tr><td>${escapeHtml(each.login)}</td><td>${escapeHtml(each.name)}</td><td>${each.role}</td></tr>`,
  ).join('');
  return page(
    PROVIDER_TITLE,
    `${form.error ? `<p class="error" role="alert">${escapeHtml(form.error)}</p>` : ''}` +
      `<form method="post" action="${escapeHtml(form.action)}">` +
      `<label>Email <input name="login" type="email" autocomplete="username" required autofocus value="${escapeHtml(form.login ?? '')}"></label>` +
      `<label>Password <input name="password" type="password" autocomplete="current-password" required></label>` +
      `<button type="submit">Sign in</button></form>` +
      `<h2>Demo people</h2><table>${people}</table>` +
      '<p>Their password is in the data folder: <code>identity-provider/demo-password</code>.</p>',
  );
}

/**
 * The page that asks a signed-in person to confirm signing out (OpenID Connect RP-initiated
 * logout): `form` is the library's own hidden form (its action and anti-forgery value).
 */
export const signOutPage = (form: string): string =>
  page(
    PROVIDER_TITLE,
    `${form}<p>Sign out of the local identity provider?</p>` +
      '<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>',
  );

export const signedOutPage = (): string =>
  page('Signed out', '<p>You are signed out of the local identity provider.</p>');

export const errorPage = (title: string, message: string): string =>
  page(title, `<p class="error">${escapeHtml(message)}</p>`);

export const WRONG_SIGN_IN = 'Wrong email or password.';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The person these credentials sign in, if any. The password is compared in constant time
 * (digests of equal length), and also for an unknown login, so that timing tells nothing.
 */
export function checkSignIn(
  login: string,
  password: string,
  expectedPassword: string,
): DemoPerson | undefined {
  const passwordMatches = timingSafeEqual(digest(password), digest(expectedPassword));
  const person = demoPersonByLogin(login);
  return passwordMatches && person ? person : undefined;
}
