// The jq worker thread (src/io/formats/jq-worker.ts) as text: `import source from 'trackctl:jq-worker'
// with { type: 'text' }` gets the worker bundled on its own (with jq-wasm and its WebAssembly
// image) as one CommonJS script, which jq.ts starts with `new Worker(source, { eval: true })`.
// Every build uses it (dist, the tests, the single executable): none needs a file beside it.
import { build } from 'esbuild';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

export const jqWorkerText = {
  name: 'jq-worker-text',
  setup(b) {
    b.onResolve({ filter: /^trackctl:jq-worker$/ }, () => ({ path: 'jq-worker', namespace: 'jq-worker-text' }));
    b.onLoad({ filter: /.*/, namespace: 'jq-worker-text' }, async () => {
      const result = await build({
        entryPoints: [join(root, 'src/io/formats/jq-worker.ts')],
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        write: false,
        minifyWhitespace: true,
        minifySyntax: true,
        legalComments: 'none',
        logLevel: 'warning',
        metafile: true,
        // jq-wasm's Node entry works out its own folder to read jq.wasm from; the worker hands it
        // the image itself, so that folder is never read (and a script run with eval has no URL).
        define: { 'import.meta.url': JSON.stringify('file:///trackctl/jq-worker.js') },
      });
      return { contents: result.outputFiles[0].text, loader: 'text', watchFiles: Object.keys(result.metafile.inputs).map((p) => join(root, p)) };
    });
  },
};
