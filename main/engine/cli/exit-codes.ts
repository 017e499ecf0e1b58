import type { ErrorCode } from '../../common/errors.js';

/** Documented in the README: scripts can branch on them. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  contractMismatch: 3,
  unavailable: 4,
  locked: 5,
} as const;

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'invalid_argument':
    case 'config_invalid':
    case 'not_found':
    case 'path_outside_folders':
    case 'conflict':
      return EXIT.usage;
    case 'embedding_contract_mismatch':
    case 'sparse_contract_mismatch':
    case 'index_corrupt':
      return EXIT.contractMismatch;
    case 'dependency_unavailable':
    case 'required_retrieval_leg_failed':
      return EXIT.unavailable;
    case 'engine_locked':
      return EXIT.locked;
    default:
      return EXIT.error;
  }
}
