/**
 * ONNX Runtime's Linux and macOS builds (1.29 on) carry Microsoft's 1DS telemetry. At the first
 * session in a process it writes a device id and an event store under the user's cache folder
 * (`~/.cache/Microsoft/DeveloperTools/.onnxruntime`), leaves `mat-debug-<pid>.log` and `.ses` in
 * the temp folder (one more file there per engine start), and holds an upload address
 * (mobile.events.data.microsoft.com). None of that belongs in a local search engine whose promise
 * is that the user's folders stay on the machine, so Cairn turns it off.
 *
 * The runtime reads ORT_DISABLE_TELEMETRY from the process environment when its first session
 * starts. A worker thread's `process.env` is a copy native code never sees, so this runs on the
 * main thread before any embedding worker starts. A value the user set is left alone.
 */
export function keepOnnxRuntimeLocal(env: NodeJS.ProcessEnv = process.env): void {
  if (env.ORT_DISABLE_TELEMETRY === undefined) env.ORT_DISABLE_TELEMETRY = '1';
}
