// Makes sure a server a test starts for itself (its own private instance) is installed: installs
// Debian's package when missing and running as root; otherwise says what to install and exits 1.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * @param {{ check: string, pkg: string, service: string, name: string, purpose: string }} what
 *   `check`: a command that succeeds when it is there; `service`: the system instances the package
 *   starts where an init system runs, separated by spaces (stopped: the tests start their own).
 */
export function ensureDebianPackage({ check, pkg, service, name, purpose }) {
  const found = () => {
    try {
      execSync(check, { stdio: 'ignore', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` } });
      return true;
    } catch {
      return false;
    }
  };
  if (found()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`${name} not found: installing Debian ${pkg} (apt-get)...`);
    try {
      execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`, {
        stdio: 'inherit',
      });
    } catch {
      /* reported below */
    }
    for (const name of service.split(' ')) execSync(`(service ${name} stop || true) >/dev/null 2>&1`);
    if (found()) return;
  }
  console.error(`No ${name} found. Install it (Debian: sudo apt-get install ${pkg}); ${purpose}.`);
  process.exit(1);
}
