import type { ErrorBody, ErrorCode } from '../../../main/common/errors';

/** A few words a person reads first; the machine code follows, small, for a bug report or a search. */
const TITLES: Partial<Record<ErrorCode, string>> = {
  invalid_argument: 'Not accepted',
  config_invalid: 'Not saved',
  conflict: 'Not done',
  not_found: 'Not found',
  unauthorized: 'Not signed in',
  forbidden: 'Refused',
  dependency_unavailable: 'Not available',
  disk_full: 'The disk is full',
  embedding_contract_mismatch: 'The index was built with another model',
  sparse_contract_mismatch: 'The index was built with other text settings',
  index_corrupt: 'The index is damaged',
  internal: 'Something went wrong',
};

/** A typed error: what happened and what to do about it. */
export function ErrorNote({ error, testId = 'error' }: { error: ErrorBody; testId?: string }) {
  const title = TITLES[error.code] ?? 'Failed';
  // Messages that already start with the verdict ("Not saved: ...") need no title before them.
  const showTitle = !error.message.toLowerCase().startsWith(title.toLowerCase());
  return (
    <div className="error-note" role="alert" data-testid={testId} data-code={error.code}>
      <p>
        {showTitle ? <strong>{title}. </strong> : null}
        {error.message}
      </p>
      {error.remedy ? (
        <p className="remedy" data-testid={`${testId}-remedy`}>
          <strong>What to do:</strong> {error.remedy}
        </p>
      ) : null}
      <p className="error-code">code: {error.code}</p>
    </div>
  );
}
