// Makes sure `nginx` exists for the relay's deployment test (it starts its own private instance in
// front of a relay). Installs Debian's nginx-light when missing and running as root; otherwise explains.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const found = () => {
  try {
    execSync('nginx -v', { stdio: 'ignore', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` } });
    return true;
  } catch {
    return false;
  }
};

if (found()) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log('nginx not found: installing Debian nginx-light (apt-get)...');
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light', {
      stdio: 'inherit',
    });
  } catch {
    /* reported below */
  }
  // Where an init system runs, the package starts a system instance: the test starts its own,
  // so that one is stopped rather than left behind.
  execSync('(service nginx stop || true) >/dev/null 2>&1');
  if (found()) process.exit(0);
}
console.error(
  'No nginx found. Install it (Debian: sudo apt-get install nginx-light); the relay deployment test starts its own instance.',
);
process.exit(1);
