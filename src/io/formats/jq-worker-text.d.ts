// jq-worker.ts bundled on its own, as the text of a script (scripts/jq-worker-text.mjs): jq.ts
// starts it as a worker thread with `eval`, so no file beside the bundle is needed.
declare module 'trackctl:jq-worker' {
  const text: string;
  export default text;
}
