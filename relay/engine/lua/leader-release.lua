-- KEYS: lock. ARGV: lock value. Gives the lock up at once (graceful shutdown: fast takeover).
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
