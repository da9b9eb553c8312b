// A tiny static file server for the demo (no dependency). Serves the repository root so that
// web/index.html can import /dist/index.js; binds to 127.0.0.1 only.
//   node scripts/serve.mjs            → port $PORT, else DEFAULT_PORT (8080), prints http://127.0.0.1:PORT/web/
//   import { startServer } from './serve.mjs'; const { url, close } = await startServer();
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The port `npm start` serves on when $PORT is not set (a fixed one, so that the URL stays the same). */
export const DEFAULT_PORT = 8080;

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Starts the server; resolves to {url (of the demo page), origin, port, close()}. */
export function startServer({ root = repoRoot, port = Number(process.env.PORT ?? 0), log = false } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      if (path === '/') {
        res.writeHead(302, { Location: '/web/' });
        res.end();
        return;
      }
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error('outside root'), { status: 403 });
      let info = await stat(file);
      if (info.isDirectory()) {
        if (!path.endsWith('/')) {
          res.writeHead(301, { Location: `${path}/` });
          res.end();
          return;
        }
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': body.length,
        'Cache-Control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log) console.log(`200 ${path}`);
    } catch (e) {
      const status = e.status ?? (e.code === 'ENOENT' || e.code === 'ENOTDIR' ? 404 : 500);
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`${status}\n`);
      if (log) console.log(`${status} ${req.url}`);
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      const origin = `http://127.0.0.1:${actual}`;
      resolvePromise({
        url: `${origin}/web/`,
        origin,
        port: actual,
        close: () => new Promise((done) => { server.closeAllConnections?.(); server.close(() => done()); }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? DEFAULT_PORT);
  try {
    const { url } = await startServer({ port, log: process.env.URNFOREST_SERVE_LOG === '1' });
    console.log(`urnforest demo: ${url}  (Ctrl+C to stop)`);
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    console.error(`serve: port ${port} is in use; choose another: PORT=${port + 1} npm start`);
    process.exitCode = 1;
  }
}
