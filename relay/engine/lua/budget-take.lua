-- One upstream request counted, fenced, by Redis's clock, within the cluster's limits. KEYS: lock,
-- minute window (sorted set of stamps), day (hash: `day` name and `count`), the cluster's limits.
-- ARGV: lock value, per-minute limit, per-day limit (-1: none), unique member, channel, the
-- member's plan ('' : unchecked), the plan's TTL ms. The cluster's plan is stored by the first
-- member to spend (and renewed by each that agrees); a member whose plan differs spends nothing.
-- The spend is PUBLISHed on the channel as `<now> <member> <day> <count>`, so every member holds
-- the counts should Redis lose them. Returns {1, day count, now, day} (counted), {0, retry-after ms}
-- (budget spent), {-1, 0} (fenced: not the leader) or {-2, 0} (another plan than the cluster's).
-- Run after budget-clock.lua, which defines clock().
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1, 0} end
if ARGV[6] ~= '' then
  local plan = redis.call('GET', KEYS[4])
  if plan and plan ~= ARGV[6] then return {-2, 0} end
  if not plan then redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[7]) end
end
local now, today = clock()
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
local n = redis.call('ZCARD', KEYS[2])
local perMinute = tonumber(ARGV[2])
if n >= perMinute then
  local oldest = redis.call('ZRANGE', KEYS[2], n - perMinute, n - perMinute, 'WITHSCORES')
  return {0, math.max(1, tonumber(oldest[2]) + 60000 - now)}
end
local day = today
local held = redis.call('HGET', KEYS[3], 'day')
-- A day written back by a member (MERGE) is never restarted.
if held and held > day then day = held end
local count = 0
if held == day then count = tonumber(redis.call('HGET', KEYS[3], 'count') or '0') end
local perDay = tonumber(ARGV[3])
if perDay >= 0 and count >= perDay then return {0, 3600000} end
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('PEXPIRE', KEYS[2], 61000)
count = count + 1
redis.call('HSET', KEYS[3], 'day', day, 'count', count)
redis.call('EXPIRE', KEYS[3], 172800)
redis.call('PUBLISH', ARGV[5], now .. ' ' .. ARGV[4] .. ' ' .. day .. ' ' .. count)
return {1, count, now, day}
