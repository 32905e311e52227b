/**
 * `npm run deploy:check` says whether a deploy will work: its checks pass on the stack as it is,
 * and it prints what a first deploy creates, what a destroy keeps and the monthly cost, for a
 * normal deploy, one with people's sign-in (`-c identity=cognito`, whose user pool the snapshot
 * records under that context) and a trial one (`-c trial=true`, which keeps nothing).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { IDENTITY_CONTEXT } from '../../lib/people-sign-in.js';

const projectRoot = join(__dirname, '..', '..');
const deployCheck = (...context: string[]) =>
  spawnSync('npm', ['run', '--silent', 'deploy:check', '--', ...context], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 240_000,
  });

describe('npm run deploy:check', () => {
  it('passes every check on the stack as it is, and prints what a deploy creates, keeps and costs', () => {
    // Act
    const run = deployCheck();
    // Assess
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('ok: every resource matches its CloudFormation resource schema');
    expect(run.stdout).toContain("ok: cdk-nag's AWS Solutions checks leave no finding open");
    expect(run.stdout).toContain('ok: no stateful resource is replaced');
    expect(run.stdout).toMatch(/== What a first deploy creates[\s\S]*'AssetRegistryStack'/);
    expect(run.stdout).toMatch(/== What cdk destroy keeps\n[\s\S]*AWS::DynamoDB::Table/);
    expect(run.stdout).toMatch(/== Monthly cost/);
    expect(run.stdout).toMatch(/Deploy check: ok\s*$/);
  }, 300_000);

  it('passes with -c identity=cognito: the user pool is in the snapshot, marked with the context', () => {
    // Act
    const run = deployCheck('-c', `${IDENTITY_CONTEXT}=cognito`);
    // Assess
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('ok: no stateful resource is replaced');
    expect(run.stdout).toMatch(/== What cdk destroy keeps\n[\s\S]*AWS::Cognito::UserPool/);
  }, 300_000);

  it('keeps nothing on destroy in a trial deploy', () => {
    // Act
    const run = deployCheck('-c', 'trial=true');
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('== What cdk destroy keeps\nnothing (trial mode)');
  }, 300_000);

  it('refuses an argument that is not a context value', () => {
    // Act
    const run = deployCheck('--force');
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Unknown argument --force: use -c key=value');
  });
});
