import type { ErrorBody } from '../../../main/common/errors';

/** A typed error: what happened (with its code) and what to do about it. */
export function ErrorNote({ error, testId = 'error' }: { error: ErrorBody; testId?: string }) {
  return (
    <div className="error-note" role="alert" data-testid={testId} data-code={error.code}>
      <p>
        <code className="code-badge">{error.code}</code> {error.message}
      </p>
      {error.remedy ? (
        <p className="remedy" data-testid={`${testId}-remedy`}>
          <strong>What to do:</strong> {error.remedy}
        </p>
      ) : null}
    </div>
  );
}
