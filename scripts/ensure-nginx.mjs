// Makes sure `nginx` exists for the relay's deployment test (it starts its own instance in front of a relay).
import { ensureDebianPackage } from './ensure-debian.mjs';

ensureDebianPackage({
  check: 'nginx -v',
  pkg: 'nginx-light',
  service: 'nginx',
  name: 'nginx',
  purpose: 'the relay deployment test starts its own instance',
});
