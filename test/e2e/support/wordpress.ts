/**
 * A real WordPress for the plugin's tests: Debian's `wordpress` copied to a temporary folder, its
 * own MariaDB (datadir, socket and pid in that folder, no network), served by `php -S` on a free
 * port, installed by `wordpress-install.php` (wp_install(), the built zip's plugin activated).
 * `scripts/ensure-wordpress.mjs` installs the Debian packages when missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const DEBIAN_WORDPRESS = '/usr/share/wordpress';
const INSTALLER = fileURLToPath(new URL('./wordpress-install.php', import.meta.url));
/** The plugin's installable zip (`npm run build:wordpress`). */
export const PLUGIN_ZIP = fileURLToPath(new URL('../../../wordpress/dist/price-board.zip', import.meta.url));
/** Bounds on starting a server: failure bounds, not waits. */
const START_MS = 60_000;

export interface WordPressPost {
  type: 'post' | 'page';
  title: string;
  content: string;
}

export interface WordPressOptions {
  /** The plugin's saved settings (`price_board_settings`). */
  settings: Record<string, string>;
  /** Posts to write, by a name the test uses. */
  posts: Record<string, WordPressPost>;
}

export interface WordPressSite {
  url: string;
  adminPassword: string;
  /** The author's application password (REST API, Basic auth). */
  authorPassword: string;
  /** Post ids by the names given. */
  posts: Record<string, number>;
  /** The address of a post or page written at the start, by its name. */
  postUrl(name: string): string;
  /** The output of PHP code run in the loaded site (a front-end request's WordPress, from the command line). */
  php(code: string): string;
  /** PHP's notices and warnings so far (WP_DEBUG_LOG). */
  debugLog(): string;
  close(): Promise<void>;
}

/** Resolves with the child's first line matching `ready` on stderr; rejects if it exits first. */
function waitForLine(child: ChildProcess, ready: RegExp, what: string): Promise<void> {
  return new Promise((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start in time:\n${seen}`)), START_MS);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited (${code}):\n${seen}`));
    });
  });
}

/**
 * Ends `child` and its own children (SIGTERM to its process group: it is started detached, and
 * `php -S` leaves its workers running when only it is ended), and waits for it to be gone.
 */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

/** Runs a command to its end: its output, or an error that shows all it said. */
function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status === 0) return result.stdout;
  throw new Error(
    `${command} ${basename(args[0] ?? '')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
  );
}

/** A port free right now (php -S cannot take port 0). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

/** A private MariaDB in `dir`: reachable only through its socket. */
async function startMariaDb(dir: string): Promise<{ socket: string; process: ChildProcess }> {
  const datadir = join(dir, 'db');
  const socket = join(dir, 'mysqld.sock');
  const user = userInfo().username;
  run('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--user=${user}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  const child = spawn(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--user=${user}`,
      '--skip-networking',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=32M',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  await waitForLine(child, /ready for connections/, 'mariadbd');
  return { socket, process: child };
}

/** Debian's WordPress, copied (its own wp-config.php reads /etc/wordpress: this one is the test's). */
function copyWordPress(site: string, url: string, socket: string): void {
  cpSync(DEBIAN_WORDPRESS, site, {
    recursive: true,
    dereference: true,
    // Only Persian among the translations: the site is installed in fa_IR.
    filter: (source) => !/\/wp-content\/languages\/./.test(source) || /fa_IR/.test(basename(source)),
  });
  const salt = () => randomBytes(24).toString('hex');
  const constants: Record<string, string | boolean> = {
    DB_NAME: 'wordpress',
    DB_USER: 'root',
    DB_PASSWORD: '',
    DB_HOST: `localhost:${socket}`,
    DB_CHARSET: 'utf8mb4',
    DB_COLLATE: '',
    WP_HOME: url,
    WP_SITEURL: url,
    WP_CONTENT_DIR: join(site, 'wp-content'),
    // Application passwords over plain HTTP.
    WP_ENVIRONMENT_TYPE: 'local',
    // No calls home (api.wordpress.org) from a closed network; the relay on 127.0.0.1 is allowed.
    WP_HTTP_BLOCK_EXTERNAL: true,
    AUTOMATIC_UPDATER_DISABLED: true,
    DISABLE_WP_CRON: true,
    WP_DEBUG: true,
    WP_DEBUG_DISPLAY: false,
    WP_DEBUG_LOG: join(site, 'debug.log'),
    FS_METHOD: 'direct',
  };
  for (const name of ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE']) {
    constants[`${name}_KEY`] = salt();
    constants[`${name}_SALT`] = salt();
  }
  const lines = Object.entries(constants).map(
    ([name, value]) => `define(${JSON.stringify(name)}, ${JSON.stringify(value)});`,
  );
  writeFileSync(
    join(site, 'wp-config.php'),
    `<?php\n${lines.join('\n')}\n$table_prefix = 'wp_';\nif (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');\nrequire_once ABSPATH . 'wp-settings.php';\n`,
  );
}

/** A WordPress with the plugin from {@link PLUGIN_ZIP} installed and activated. */
export async function startWordPress(options: WordPressOptions): Promise<WordPressSite> {
  if (!existsSync(join(DEBIAN_WORDPRESS, 'wp-settings.php')))
    throw new Error(
      'No WordPress in /usr/share/wordpress: run `node scripts/ensure-wordpress.mjs` (Debian wordpress).',
    );
  if (!existsSync(PLUGIN_ZIP)) throw new Error(`${PLUGIN_ZIP} is missing: run \`npm run build:wordpress\`.`);
  const dir = mkdtempSync(join(tmpdir(), 'price-board-wp-'));
  const children: ChildProcess[] = [];
  const close = async () => {
    for (const child of children.reverse()) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const db = await startMariaDb(dir);
    children.push(db.process);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const site = join(dir, 'site');
    copyWordPress(site, url, db.socket);
    const adminPassword = randomBytes(12).toString('hex');
    const job = {
      url,
      socket: db.socket,
      zip: PLUGIN_ZIP,
      adminPassword,
      settings: options.settings,
      posts: options.posts,
    };
    const made = JSON.parse(run('php', [INSTALLER, site, JSON.stringify(job)])) as {
      posts: Record<string, number>;
      authorPassword: string;
    };
    // Several workers: a page's fragment request and the browser's asset requests at once.
    const php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', site], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      detached: true,
    });
    children.push(php);
    await waitForLine(php, /Development Server .* started/, 'php -S');
    // The request log keeps coming: read it, or the pipe fills and the server stalls.
    php.stderr!.resume();
    const logFile = join(site, 'debug.log');
    return {
      url,
      adminPassword,
      authorPassword: made.authorPassword,
      posts: made.posts,
      postUrl: (name) => `${url}/?${options.posts[name]?.type === 'page' ? 'page_id' : 'p'}=${made.posts[name]}`,
      php: (code) =>
        run('php', [
          '-r',
          `$_SERVER['HTTP_HOST'] = ${JSON.stringify(new URL(url).host)}; require ${JSON.stringify(join(site, 'wp-load.php'))}; ${code}`,
        ]),
      debugLog: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      close,
    };
  } catch (error) {
    const log = join(dir, 'site', 'debug.log');
    const said = existsSync(log) ? `\nWordPress's log:\n${readFileSync(log, 'utf8')}` : '';
    await close();
    throw new Error(`${String(error)}${said}`, { cause: error });
  }
}
