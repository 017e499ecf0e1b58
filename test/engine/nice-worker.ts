// Reports the niceness of the thread it runs on (field 19 of /proc/thread-self/stat), for thread-priority.test.ts.
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const stat = readFileSync('/proc/thread-self/stat', 'utf8');
parentPort?.postMessage(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
