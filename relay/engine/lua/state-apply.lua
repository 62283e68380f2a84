-- Merges quotes by `updated_at` (the same time with other JSON: a correction, applied) and numbers
-- the changes, fenced unless ARGV[1] is '' (a resync seeds known quotes, numbering nothing, and
-- only where Redis holds none as new: a member's copy never undoes a correction it missed).
-- KEYS: lock, id counter, times hash, quotes hash, events (sorted set by id). ARGV: lock value,
-- received-at ms, id floor, buffer size, then per quote: symbol, updated-at ms, JSON. Returns the
-- new id per quote (0: not newer), or the error FENCED.
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('FENCED') end
local seq = tonumber(redis.call('GET', KEYS[2]) or '0')
local floor = tonumber(ARGV[3])
if seq < floor then seq = floor end
local out = {}
for i = 5, #ARGV, 3 do
  local held = redis.call('HGET', KEYS[3], ARGV[i])
  local t = tonumber(ARGV[i + 1])
  if not held or t > tonumber(held) or (ARGV[1] ~= '' and t == tonumber(held) and redis.call('HGET', KEYS[4], ARGV[i]) ~= ARGV[i + 2]) then
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 2])
    if ARGV[1] ~= '' then
      seq = seq + 1
      redis.call('ZADD', KEYS[5], seq, '{"id":' .. seq .. ',"receivedAt":' .. ARGV[2] .. ',"quote":' .. ARGV[i + 2] .. '}')
      out[#out + 1] = seq
    else
      out[#out + 1] = 0
    end
  else
    out[#out + 1] = 0
  end
end
redis.call('SET', KEYS[2], seq)
redis.call('ZREMRANGEBYRANK', KEYS[5], 0, -(tonumber(ARGV[4]) + 1))
return out
