// Makes sure `php` exists for the PHP include test (it serves the recipe's host page with `php -S`).
import { ensureDebianPackage } from './ensure-debian.mjs';

ensureDebianPackage({
  check: 'php -v',
  pkg: 'php-cli',
  // php-cli starts no system instance; the stop is a no-op.
  service: 'php-cli',
  name: 'PHP',
  purpose: 'the PHP include test serves its host page with `php -S`',
});
