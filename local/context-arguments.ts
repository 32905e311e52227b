/** Context values given on a command line as `cdk` takes them: `-c key=value` (or `--context`). */

/**
 * The context values of the arguments; throws on any other argument.
 *
 * @example
 * contextFromArguments(['-c', 'trial=true']); // { trial: 'true' }
 */
export function contextFromArguments(argv: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    const pair = argument === '-c' || argument === '--context' ? argv[++index] : undefined;
    const [key, ...value] = (pair ?? '').split('=');
    if (!pair || !key || value.length === 0)
      throw new Error(`Unknown argument ${argument}: use -c key=value`);
    context[key] = value.join('=');
  }
  return context;
}
