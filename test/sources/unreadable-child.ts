// Run by unreadable.test.ts as an unprivileged user (root reads everything, so the check would
// prove nothing as root). Prints the walk's items as one JSON line.
import { walkFolder, type WalkItem } from '../../main/engine/sources/index.js';
import { FolderAccess } from '../../main/engine/sources/access.js';
import { CairnError } from '../../main/engine/errors.js';

const dir = process.argv[2];
const items: WalkItem[] = [];
for await (const item of walkFolder(
  { path: dir },
  { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] },
))
  items.push(item);
let readError: unknown = null;
try {
  await new FolderAccess({ path: dir }, { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] }).readFile(
    `${dir}/locked.txt`,
  );
} catch (err) {
  readError = err instanceof CairnError ? { code: err.code, message: err.message } : String(err);
}
process.stdout.write(JSON.stringify({ uid: process.getuid?.(), items, readError }) + '\n');
