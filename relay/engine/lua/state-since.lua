-- KEYS: id counter, events. ARGV: last id. Returns {current id, oldest held id (0: none), events
-- after the last id...} in one read, so "is it still held?" and the events agree.
local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local out = {seq, first[2] and tonumber(first[2]) or 0}
for _, e in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf')) do out[#out + 1] = e end
return out
