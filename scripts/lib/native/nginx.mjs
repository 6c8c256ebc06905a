// One nginx per site, bound to 127.0.0.1 only, serving the site's WordPress
// directory and passing PHP to the site's PHP-FPM socket. Its config, temp
// directories and logs live under the site's state directory; no system
// config is read (the -p prefix and -e error log keep nginx off /var/log).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnLogged, stopChild, waitForHttp } from '../process.mjs';
import { detectNative } from './detect.mjs';

const isRoot = process.getuid?.() === 0;

const MIME_TYPES = '/etc/nginx/mime.types';

/**
 * `fpmSocket`: the one PHP-FPM. `fpmServers` instead: several web servers
 * ([name, socket] pairs, each its own PHP-FPM master), requests spread over
 * them in turn (round robin), each answer naming its server in the
 * X-Card2Crypto-Server header.
 *
 * @param {{ dir: string, logDir: string, port: number, host?: string, root: string, fpmSocket?: string,
 *           fpmServers?: Array<[string, string]>, timeoutMs?: number }} options
 * @return {Promise<{ url: string, pid: number, child: import('node:child_process').ChildProcess, stop: () => Promise<void> }>}
 */
export async function startNginx({ dir, logDir, port, host = '127.0.0.1', root, fpmSocket, fpmServers = null, timeoutMs = 30_000 }) {
  const { programs } = detectNative();
  const upstream = fpmServers
    ? `upstream card2crypto_servers {
${fpmServers.map(([, socket]) => `    server unix:${socket};`).join('\n')}
  }
  map $upstream_addr $card2crypto_server {
${fpmServers.map(([name, socket]) => `    "~${socket.replace(/[^\w/-]/g, '\\$&')}$" ${name};`).join('\n')}
    default $upstream_addr;
  }
`
    : '';
  const pass = fpmServers
    ? 'fastcgi_pass card2crypto_servers;\n      add_header X-Card2Crypto-Server $card2crypto_server always;'
    : `fastcgi_pass unix:${fpmSocket};`;
  const temp = join(dir, 'temp');
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    await mkdir(join(temp, sub), { recursive: true });
  }
  await mkdir(logDir, { recursive: true });
  const errorLog = join(logDir, 'nginx-error.log');
  const types = existsSync(MIME_TYPES)
    ? `include ${MIME_TYPES};`
    : 'types { text/html html; text/css css; application/javascript js mjs; application/json json; image/png png; image/svg+xml svg; image/jpeg jpg jpeg; image/gif gif; font/woff2 woff2; }';
  const config = `# Written by scripts/lib/native/nginx.mjs at every start.
daemon off;
${isRoot ? 'user root root;' : ''}
worker_processes 2;
pid ${join(dir, 'nginx.pid')};
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
  ${types}
  default_type application/octet-stream;
  access_log ${join(logDir, 'nginx-access.log')} combined buffer=32k flush=1s;
  client_body_temp_path ${join(temp, 'body')};
  proxy_temp_path ${join(temp, 'proxy')};
  fastcgi_temp_path ${join(temp, 'fastcgi')};
  uwsgi_temp_path ${join(temp, 'uwsgi')};
  scgi_temp_path ${join(temp, 'scgi')};
  client_max_body_size 64m;
  sendfile on;
  keepalive_timeout 30;
  ${upstream}server {
    listen ${host}:${port};
    server_name _;
    root ${root};
    index index.php;
    # Dot files, logs (debug.log, WooCommerce's and the plugins' logs) and
    # the harness's own files are never served.
    location ~ /\\. { deny all; }
    location ~* \\.(log|sql|sqlite)$ { deny all; }
    location ^~ /wp-content/uploads/wc-logs/ { deny all; }
    location / { try_files $uri $uri/ /index.php?$args; }
    location ~ \\.php$ {
      try_files $uri =404;
      fastcgi_split_path_info ^(.+\\.php)(/.+)$;
      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
      fastcgi_param QUERY_STRING $query_string;
      fastcgi_param REQUEST_METHOD $request_method;
      fastcgi_param CONTENT_TYPE $content_type;
      fastcgi_param CONTENT_LENGTH $content_length;
      fastcgi_param SCRIPT_NAME $fastcgi_script_name;
      fastcgi_param REQUEST_URI $request_uri;
      fastcgi_param DOCUMENT_URI $document_uri;
      fastcgi_param DOCUMENT_ROOT $document_root;
      fastcgi_param SERVER_PROTOCOL $server_protocol;
      fastcgi_param GATEWAY_INTERFACE CGI/1.1;
      fastcgi_param SERVER_SOFTWARE nginx;
      fastcgi_param REMOTE_ADDR $remote_addr;
      fastcgi_param REMOTE_PORT $remote_port;
      fastcgi_param SERVER_ADDR $server_addr;
      fastcgi_param SERVER_PORT $server_port;
      fastcgi_param SERVER_NAME $host;
      fastcgi_param HTTPS "";
      fastcgi_param HTTP_PROXY "";
      ${pass}
      fastcgi_read_timeout 300;
      fastcgi_buffers 16 16k;
      fastcgi_buffer_size 32k;
    }
  }
}
`;
  const file = join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child = spawnLogged(programs.nginx, ['-p', dir, '-c', file, '-e', errorLog], { logFile: join(logDir, 'nginx.log') });
  const stop = () => stopChild(child);
  const url = `http://${host}:${port}`;
  try {
    await waitForHttp(`${url}/wp-includes/images/blank.gif`, { timeoutMs, child, what: 'nginx' });
  } catch (error) {
    await stop();
    throw new Error(`${error.message} (log: ${errorLog})`);
  }
  return { url, pid: child.pid, child, stop };
}
