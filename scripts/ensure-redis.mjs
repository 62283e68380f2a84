// Makes sure `redis-server` exists for the relay's cluster tests (each test run starts its own instance).
import { ensureDebianPackage } from './ensure-debian.mjs';

ensureDebianPackage({
  check: 'redis-server --version',
  pkg: 'redis-server',
  service: 'redis-server',
  name: 'redis-server',
  purpose: 'the relay cluster tests start their own instance',
});
