// Makes sure a Chromium the tests can drive exists: Playwright cannot download its own browsers
// here, so we use Debian's. Installs it when missing and running as root; otherwise explains.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { chromiumPath, CANDIDATES } from './chromium.mjs';

if (chromiumPath()) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log('Chromium not found: installing Debian chromium (apt-get)...');
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
    });
  } catch {
    /* reported below */
  }
  if (chromiumPath()) process.exit(0);
}
console.error(
  `No Chromium found (looked at ${CANDIDATES.join(', ')}).\n` +
    'Install it (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.',
);
process.exit(1);
