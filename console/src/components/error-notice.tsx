/** An error in plain words with the API's code; announced to screen readers. */
import { ApiError } from '../api-client';

export function describeError(error: unknown): { message: string; code?: string } {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return {
        message: 'The API key was not accepted: check that it is complete and not revoked.',
        code: error.code,
      };
    if (error.status === 403) return { message: `Not allowed: ${error.message}.`, code: error.code };
    return { message: error.message, code: error.code };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const { message, code } = describeError(error);
  const issues = error instanceof ApiError ? error.validationErrors : [];
  return (
    <div class="notice error" role="alert">
      <p>
        {message}
        {code && (
          <>
            {' '}
            <code class="error-code">{code}</code>
          </>
        )}
      </p>
      {issues.length > 0 && (
        <ul>
          {issues.map((issue) => (
            <li key={`${issue.field}:${issue.message}`}>
              <strong>{issue.field}</strong>: {issue.message} {issue.code && <code>{issue.code}</code>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
