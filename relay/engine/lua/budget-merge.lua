-- Writes back what a member holds of the budget (Redis may have restarted empty) and returns what
-- Redis holds then. It only ever raises the counts (a union of stamps, the later day, the larger
-- count), so it needs no fencing. KEYS: minute window, day. ARGV: day name ('' = none), count,
-- then per stamp: ms, member. Returns {day name ('' = none), count, member, ms, member, ms...}.
for i = 3, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
if #ARGV > 2 then redis.call('PEXPIRE', KEYS[1], 61000) end
local day = redis.call('HGET', KEYS[2], 'day')
local count = tonumber(redis.call('HGET', KEYS[2], 'count') or '0')
if ARGV[1] ~= '' and (not day or ARGV[1] > day or (ARGV[1] == day and tonumber(ARGV[2]) > count)) then
  day = ARGV[1]
  count = tonumber(ARGV[2])
  redis.call('HSET', KEYS[2], 'day', day, 'count', count)
  redis.call('EXPIRE', KEYS[2], 172800)
end
local out = {day or '', count}
for _, v in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do out[#out + 1] = v end
return out
