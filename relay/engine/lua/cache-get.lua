-- A visitor's read: returns the value (or nil) and counts the use (a hit on probation promotes it).
-- Run after budget-clock.lua, which defines clock().
-- Run after cache-common.lua, which defines the keys, forget() and balance().
local value = redis.call('GET', prefix .. member)
if not value then forget(member) return false end
local tick = redis.call('HINCRBY', stats, 'tick', 1)
if redis.call('ZSCORE', prot, member) then
  redis.call('ZADD', prot, tick, member)
  return value
end
local size = num(sizes, member)
if redis.call('ZREM', prob, member) == 1 then
  redis.call('HINCRBY', stats, 'prob', -size)
else
  -- Written outside this script (an older relay): counted from now on.
  size = string.len(member) + string.len(value) + 100
  redis.call('HSET', sizes, member, size)
end
redis.call('ZADD', prot, tick, member)
redis.call('HINCRBY', stats, 'prot', size)
balance()
return value
