/**
 * Tool results fail closed: `{result}` with `isError` unset, or `{error}` with `isError: true`,
 * never both and never a partial result.
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { ErrorBody } from '../../common/errors.js';
import { toErrorBody } from '../errors.js';
import { escapeControls } from '../../common/escape.js';
import { renderError } from './render.js';

export function success(result: unknown, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { result } };
}

/** Messages quote arguments and paths: escaped like every other name Cairn renders. */
function escapedBody(body: ErrorBody): ErrorBody {
  return {
    ...body,
    message: escapeControls(body.message),
    ...(body.remedy ? { remedy: escapeControls(body.remedy) } : {}),
  };
}

export function failure(err: unknown): CallToolResult {
  const body = escapedBody(toErrorBody(err));
  return { isError: true, content: [{ type: 'text', text: renderError(body) }], structuredContent: { error: body } };
}

/** Types the SDK's own failures (argument validation, unknown tool) with Cairn's codes. */
function sdkErrorBody(message: string): ErrorBody {
  if (/Input validation error|Invalid arguments/i.test(message)) {
    return {
      code: 'invalid_argument',
      message,
      remedy: 'Fix the argument named in the message; tools/list has the schema.',
    };
  }
  if (/Tool .* (not found|disabled)/i.test(message)) return { code: 'not_found', message };
  return { code: 'internal', message };
}

/**
 * The SDK validates arguments before our handler runs and reports a failure as bare text. An
 * agent (and §5 of the spec) needs the typed `{error}` there too, so the server's error factory is
 * replaced on the instance. It is private in the SDK's types; test/mcp asserts the typed result,
 * so an SDK change that bypasses this shows up as a failing test rather than a silent regression.
 */
export function typeSdkToolErrors(server: McpServer): void {
  (server as unknown as { createToolError: (message: string) => CallToolResult }).createToolError = (
    message: string,
  ) => {
    const body = escapedBody(sdkErrorBody(message));
    return { isError: true, content: [{ type: 'text', text: renderError(body) }], structuredContent: { error: body } };
  };
}
