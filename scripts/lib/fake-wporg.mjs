// A local stand-in for wordpress.org, for the harness's tests and for trying
// `npm start` with an empty cache on a machine without internet
// (scripts/fake-wporg.mjs). It serves, on 127.0.0.1, the shapes the real
// endpoints answer (see wporg.mjs): the core version API, the plugin
// information API, release zips made from WordPress and WooCommerce folders
// at start, their published checksums (.sha1/.md5; plugin-checksums JSON),
// and on demand the failures a user meets: a corrupt zip, a tampered file,
// a download that stalls, an API that never answers.
//
// The API lives under <url>/api, the downloads under <url>/downloads: the
// two base addresses are set apart, as on wordpress.org
// (CARD2CRYPTO_WPORG_API_URL, CARD2CRYPTO_WPORG_DOWNLOADS_URL; env() gives both).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, relative, sep } from 'node:path';
import { pluginHeaders } from './find-woocommerce.mjs';
import { createZip } from './zip.mjs';

/** Every file under `dir`: [relative path with "/", absolute path]. */
async function files(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const file = join(entry.parentPath ?? entry.path, entry.name);
      found.push([relative(dir, file).split(sep).join('/'), file]);
    }
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const digest = (algorithm, data) => createHash(algorithm).update(data).digest('hex');

const compare = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) {
      return (x[i] ?? 0) - (y[i] ?? 0);
    }
  }
  return 0;
};

/**
 * @param {Object}                                options
 * @param {Array<{version: string, dir: string}>} options.wordpress   WordPress folders (wp-includes/version.php)
 * @param {Array<{version: string, dir: string}>} options.woocommerce WooCommerce plugin folders (woocommerce.php)
 * @param {number}                                [options.port]      0: any free port
 * @param {number}                                [options.level]     deflate level of the zips (1: quick)
 * @return {Promise<{url: string, env: () => Object, fault: (path: string, kind: string|null) => void, requests: string[], stop: () => Promise<void>}>}
 */
export async function startFakeWordPressOrg({ wordpress = [], woocommerce = [], port = 0, level = 1 }) {
  // path -> { body: Buffer, type }
  const routes = new Map();
  const faults = new Map();
  const requests = [];
  const server = createServer();
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolveListen) => server.listen(port, '127.0.0.1', resolveListen));
  const url = `http://127.0.0.1:${server.address().port}`;
  const api = `${url}/api`;
  const downloads = `${url}/downloads`;

  const json = (value) => ({ body: Buffer.from(JSON.stringify(value)), type: 'application/json' });
  const text = (value) => ({ body: Buffer.from(value), type: 'text/plain' });
  // Zips and the variants the faults serve, built once.
  const zips = new Map();

  const wpVersions = wordpress.map((w) => w.version).sort((a, b) => compare(b, a));
  for (const { version, dir } of wordpress) {
    const entries = [];
    for (const [name, file] of await files(dir)) {
      entries.push({ name: `wordpress/${name}`, data: await readFile(file) });
    }
    const zip = createZip(entries, { level });
    const path = `/downloads/release/wordpress-${version}.zip`;
    zips.set(path, { entries, zip });
    routes.set(path, { body: zip, type: 'application/zip' });
    routes.set(`${path}.sha1`, text(digest('sha1', zip)));
    routes.set(`${path}.md5`, text(digest('md5', zip)));
  }
  routes.set(
    '/api/core/version-check/1.7/',
    json({
      offers: wpVersions.map((version, index) => ({
        response: index === 0 ? 'upgrade' : 'autoupdate',
        download: `${downloads}/release/wordpress-${version}.zip`,
        locale: 'en_US',
        packages: {
          full: `${downloads}/release/wordpress-${version}.zip`,
          no_content: `${downloads}/release/wordpress-${version}-no-content.zip`,
          new_bundled: `${downloads}/release/wordpress-${version}-new-bundled.zip`,
          partial: false,
          rollback: false,
        },
        current: version,
        version,
        php_version: '7.2.24',
        mysql_version: '5.5.5',
        new_bundled: '6.7',
        partial_version: false,
      })),
      translations: [],
    }),
  );

  const wcVersions = woocommerce.map((w) => w.version).sort((a, b) => compare(b, a));
  let newestHeaders = {};
  for (const { version, dir } of woocommerce) {
    const entries = [];
    const checksums = {};
    for (const [name, file] of await files(dir)) {
      const data = await readFile(file);
      entries.push({ name: `woocommerce/${name}`, data });
      checksums[name] = { md5: digest('md5', data), sha256: digest('sha256', data) };
    }
    const zip = createZip(entries, { level });
    const path = `/downloads/plugin/woocommerce.${version}.zip`;
    zips.set(path, { entries, zip });
    routes.set(path, { body: zip, type: 'application/zip' });
    routes.set(
      `/downloads/plugin-checksums/woocommerce/${version}.json`,
      json({
        plugin: 'woocommerce',
        version,
        source: `https://plugins.svn.wordpress.org/woocommerce/tags/${version}/`,
        zip: `${downloads}/plugins/woocommerce.${version}.zip`,
        files: checksums,
      }),
    );
    if (version === wcVersions[0]) {
      newestHeaders = pluginHeaders(join(dir, 'woocommerce.php'));
    }
  }
  if (wcVersions.length) {
    routes.set(
      '/api/plugins/info/1.2/?action=plugin_information&slug=woocommerce',
      json({
        name: 'WooCommerce',
        slug: 'woocommerce',
        version: wcVersions[0],
        author: '<a href="https://woocommerce.com">Automattic</a>',
        requires: newestHeaders['Requires at least'] ?? false,
        tested: newestHeaders['Tested up to'] ?? false,
        requires_php: newestHeaders['Requires PHP'] ?? false,
        requires_plugins: [],
        download_link: `${downloads}/plugin/woocommerce.${wcVersions[0]}.zip`,
        versions: {
          ...Object.fromEntries([...wcVersions].reverse().map((v) => [v, `${downloads}/plugin/woocommerce.${v}.zip`])),
          trunk: `${downloads}/plugin/woocommerce.zip`,
        },
      }),
    );
  }

  /** The zip at `path` with `name`'s content changed, the published checksums left as they were. */
  const tampered = (path) => {
    const { entries } = zips.get(path);
    const main = entries.find((e) => /\/(woocommerce\.php|wp-includes\/version\.php)$/.test(e.name)) ?? entries[0];
    return createZip(
      entries.map((e) => (e === main ? { ...e, data: Buffer.concat([e.data, Buffer.from('\n// changed on the way\n')]) } : e)),
      { level },
    );
  };

  server.on('request', (request, response) => {
    const path = request.url;
    requests.push(path);
    const fault = faults.get(path.split('?')[0]) ?? faults.get(path);
    if (fault === 'hang') {
      // Accept, read, and never answer.
      return;
    }
    if (fault === 404) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const route = routes.get(path);
    if (!route) {
      const isApi = path.startsWith('/api/plugins/');
      response
        .writeHead(404, { 'content-type': isApi ? 'application/json' : 'text/plain' })
        .end(isApi ? JSON.stringify({ error: 'Plugin not found.' }) : 'Not found');
      return;
    }
    let body = route.body;
    if (fault === 'corrupt') {
      // Half the zip, said to be whole: the published checksum no longer matches, the archive does not open.
      body = body.subarray(0, Math.floor(body.length / 2));
    } else if (fault === 'tamper') {
      body = tampered(path);
    }
    response.writeHead(200, { 'content-type': route.type, 'content-length': body.length });
    if (fault === 'stall') {
      // Part of the body, then silence.
      response.write(body.subarray(0, Math.floor(body.length / 3)));
      return;
    }
    response.end(body);
  });

  return {
    url,
    /** The environment that points the harness at this fake. */
    env: () => ({ CARD2CRYPTO_WPORG_API_URL: api, CARD2CRYPTO_WPORG_DOWNLOADS_URL: downloads }),
    /** Serve `path` (without its query) with a failure: 'hang', 'stall', 'corrupt', 'tamper', 404; null restores it. */
    fault(path, kind) {
      if (kind === null) {
        faults.delete(path);
      } else {
        faults.set(path, kind);
      }
    },
    requests,
    stop: () =>
      new Promise((resolveStop) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolveStop());
      }),
  };
}

/** WordPress and WooCommerce folders of a cache laid out as paths.mjs says, for the fake to serve. */
export async function releasesIn(cacheDir) {
  const found = { wordpress: [], woocommerce: [] };
  for (const kind of ['wordpress', 'woocommerce']) {
    const base = join(cacheDir, kind);
    let names = [];
    try {
      names = await readdir(base);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => !n.startsWith('.'))) {
      const dir = join(base, name);
      try {
        const version =
          kind === 'wordpress'
            ? /\$wp_version\s*=\s*'([^']+)'/.exec(readFileSync(join(dir, 'wp-includes', 'version.php'), 'utf8'))[1]
            : pluginHeaders(join(dir, 'woocommerce.php')).Version;
        found[kind].push({ version, dir });
      } catch {
        // not a release folder
      }
    }
  }
  return found;
}
