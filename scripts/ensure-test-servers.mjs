// Everything `npm test` starts for itself, installed when missing (Debian's packages, as root), in
// one step: Chromium, redis-server, nginx, PHP, and WordPress with MariaDB. Each script exits on its
// own, so each runs as its own process; the first that cannot install stops the tests.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

for (const name of ['chromium', 'redis', 'nginx', 'php', 'wordpress']) {
  try {
    execFileSync(process.execPath, [fileURLToPath(new URL(`./ensure-${name}.mjs`, import.meta.url))], {
      stdio: 'inherit',
    });
  } catch {
    process.exit(1);
  }
}
