// Makes sure `redis-server` exists for the relay's cluster tests (each test run starts its own
// private instance). Installs Debian's package when missing and running as root; otherwise explains.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const found = () => {
  try {
    execSync('redis-server --version', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

if (found()) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log('redis-server not found: installing Debian redis-server (apt-get)...');
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server', {
      stdio: 'inherit',
    });
  } catch {
    /* reported below */
  }
  // Where an init system runs, the package starts a system instance: the tests start their own,
  // so that one is stopped rather than left behind.
  execSync('(service redis-server stop || true) >/dev/null 2>&1');
  if (found()) process.exit(0);
}
console.error(
  'No redis-server found on PATH. Install it (Debian: sudo apt-get install redis-server); the relay cluster tests start their own instance.',
);
process.exit(1);
