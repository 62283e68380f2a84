-- KEYS: minute window, day. By Redis's clock. Returns {minute, day count}.
-- Run after budget-clock.lua, which defines clock().
local now, today = clock()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
local count = 0
if redis.call('HGET', KEYS[2], 'day') == today then count = tonumber(redis.call('HGET', KEYS[2], 'count') or '0') end
return {redis.call('ZCARD', KEYS[1]), count}
