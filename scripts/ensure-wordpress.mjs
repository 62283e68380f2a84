// Makes sure Debian's WordPress, PHP's MySQL driver and MariaDB exist for the WordPress plugin's tests
// (each run starts its own private mariadbd and a `php -S` copy of WordPress).
import { ensureDebianPackage } from './ensure-debian.mjs';

ensureDebianPackage({
  check:
    'test -f /usr/share/wordpress/wp-settings.php && php -r "exit(extension_loaded(\'mysqli\') ? 0 : 1);" && mariadbd --version',
  pkg: 'wordpress php-mysql mariadb-server',
  // Debian's wordpress also brings apache2, which would take port 80.
  service: 'mariadb apache2',
  name: 'WordPress (Debian wordpress, php-mysql, mariadb-server)',
  purpose: 'the WordPress plugin tests start their own MariaDB and WordPress',
});
