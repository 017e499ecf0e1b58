export { rootError, walkFolder, walkNames, type WalkItem, type WalkOptions, type WalkedName } from './walk.js';
export { inspectPath } from './inspect.js';
export { FolderFilter, type FilterOptions, type RejectReason } from './filter.js';
export { FilterCache } from './filter-cache.js';
export { fsErrorCode } from './fs-probe.js';
export { FolderAccess, accessFromSpec, type AccessSpec, type AccessOptions } from './access.js';
export { IGNORE_FILE_NAMES } from './ignore-files.js';
export { DEFAULT_EXCLUDED_DIRS, DEFAULT_EXCLUDED_FILES, BINARY_EXTENSIONS, looksBinary } from './defaults.js';
