-- KEYS: lock. ARGV: lock value, ttl ms. 1 when still held (and extended), else 0.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
