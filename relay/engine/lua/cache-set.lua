-- Stores an entry (on probation, or kept where it was). ARGV after the common ones: value, bytes, ttl ms.
-- Run after budget-clock.lua, which defines clock().
-- Run after cache-common.lua, which defines the keys, forget() and balance().
local value, bytes, ttl = ARGV[5], tonumber(ARGV[6]), ARGV[7]
local wasKept = redis.call('ZSCORE', prot, member)
forget(member)
if bytes > max then redis.call('DEL', prefix .. member) return 0 end
redis.call('SET', prefix .. member, value, 'PX', ttl)
local segment, field = prob, 'prob'
if wasKept then segment, field = prot, 'prot' end
redis.call('ZADD', segment, redis.call('HINCRBY', stats, 'tick', 1), member)
redis.call('HSET', sizes, member, bytes)
redis.call('HINCRBY', stats, field, bytes)
balance()
return 1
