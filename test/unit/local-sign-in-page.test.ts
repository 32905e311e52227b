/** The local identity provider's sign-in page (escaping) and its password check. */
import { DEMO_PEOPLE } from '../../local/identity-provider/demo-people';
import {
  checkSignIn,
  escapeHtml,
  pageSecurityHeaders,
  signInPage,
} from '../../local/identity-provider/sign-in-page';

const PASSWORD = 'correct-horse-battery-staple';

describe('signInPage', () => {
  it('escapes the login and the error it shows again, in text and in attributes', () => {
    // Prepare
    const login = '"><script>alert(1)</script>';
    // Act
    const html = signInPage({ action: '/interaction/abc', login, error: '<b>Wrong</b> & "bad"' });
    // Assess
    expect(html).not.toContain('<script>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('&lt;b&gt;Wrong&lt;/b&gt; &amp; &quot;bad&quot;');
  });

  it('has the login and password fields, the Sign in button, and every demo person', () => {
    // Act
    const html = signInPage({ action: '/interaction/abc' });
    // Assess
    expect(html).toContain('<form method="post" action="/interaction/abc">');
    expect(html).toContain('name="login"');
    expect(html).toContain('name="password" type="password"');
    expect(html).toContain('<button type="submit">Sign in</button>');
    // The button is the only "Sign in" on the page, so that a browser test finds it by its text.
    expect(html.match(/Sign in/g)).toHaveLength(1);
    for (const person of DEMO_PEOPLE) expect(html).toContain(escapeHtml(person.login));
    expect(html).not.toContain('class="error"');
  });

  it('is allowed its own style only, no script, and forms posted to itself or the console', () => {
    // Act
    const policy = pageSecurityHeaders(['http://127.0.0.1:3000'])['Content-Security-Policy'];
    // Assess
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[\w+/]+=*';/);
    expect(policy).toContain("form-action 'self' http://127.0.0.1:3000;");
    expect(policy).not.toContain('script-src');
  });
});

describe('checkSignIn', () => {
  it('signs a demo person in with the password, whatever the case of the login', () => {
    // Act
    const person = checkSignIn(' Eddie@Demo.example ', PASSWORD, PASSWORD);
    // Assess
    expect(person).toMatchObject({ subject: 'demo-eddie', role: 'editor', name: 'Eddie Editor' });
  });

  it.each([
    ['a wrong password', 'eddie@demo.example', `${PASSWORD}x`],
    ['an empty password', 'eddie@demo.example', ''],
    ['an unknown login', 'mallory@demo.example', PASSWORD],
  ])('refuses %s', (_case, login, password) => {
    // Act
    const person = checkSignIn(login, password, PASSWORD);
    // Assess
    expect(person).toBeUndefined();
  });

  it('names each person demo-<first name>, with one role', () => {
    // Act
    const subjects = DEMO_PEOPLE.map((person) => [person.subject, person.role]);
    // Assess
    expect(subjects).toEqual([
      ['demo-vera', 'viewer'],
      ['demo-aude', 'auditor'],
      ['demo-otto', 'auditor'],
      ['demo-eddie', 'editor'],
      ['demo-ada', 'admin'],
    ]);
  });
});
