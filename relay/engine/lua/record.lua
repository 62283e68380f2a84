-- The day's record as `MemoryRecord` keeps it (`record.ts`): per symbol a sorted set of 5-minute
-- bars (score = start ms, member `t|first|last|open|high|low|close`), merged by the same rules
-- (open of the first change, close of the last, by id; the extremes compared as exact decimals),
-- trimmed to the 24 h before the symbol's newest bar and to a count, with a TTL; an index (sorted
-- set: symbol → a write counter) holds at most a number of symbols, the least recently changed
-- going first. KEYS: index, write counter. ARGV: bar-key prefix, max symbols, max bars, window ms, ttl ms, then per
-- bar: symbol, t, first, last, open, high, low, close. Prices are checked before (`record.ts`).
local index, prefix = KEYS[1], ARGV[1]
local maxSymbols, maxBars, window, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local function cmp(a, b)
  local ai, af = string.match(a, '^(%d+)%.?(%d*)$')
  local bi, bf = string.match(b, '^(%d+)%.?(%d*)$')
  if #ai ~= #bi then return #ai - #bi end
  if ai ~= bi then return ai < bi and -1 or 1 end
  local n = math.max(#af, #bf)
  af = af .. string.rep('0', n - #af)
  bf = bf .. string.rep('0', n - #bf)
  if af == bf then return 0 end
  return af < bf and -1 or 1
end
for i = 6, #ARGV, 8 do
  local symbol, t = ARGV[i], tonumber(ARGV[i + 1])
  local first, last = tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  local o, h, l, c = ARGV[i + 4], ARGV[i + 5], ARGV[i + 6], ARGV[i + 7]
  local key = prefix .. symbol
  local held = redis.call('ZRANGEBYSCORE', key, t, t)[1]
  if held then
    local hf, hl, ho, hh, hlo, hc = string.match(held, '^%d+|(%d+)|(%d+)|([^|]+)|([^|]+)|([^|]+)|([^|]+)$')
    hf, hl = tonumber(hf), tonumber(hl)
    if hf <= first then o = ho; first = hf end
    if hl >= last then c = hc; last = hl end
    if cmp(hh, h) > 0 then h = hh end
    if cmp(hlo, l) < 0 then l = hlo end
    redis.call('ZREM', key, held)
  end
  redis.call('ZADD', key, t, t .. '|' .. first .. '|' .. last .. '|' .. o .. '|' .. h .. '|' .. l .. '|' .. c)
  local newest = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. (newest - window))
  redis.call('ZREMRANGEBYRANK', key, 0, -(maxBars + 1))
  redis.call('PEXPIRE', key, ttl)
  redis.call('ZADD', index, redis.call('INCR', KEYS[2]), symbol)
  redis.call('PEXPIRE', index, ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  while redis.call('ZCARD', index) > maxSymbols do
    local gone = redis.call('ZPOPMIN', index)[1]
    redis.call('DEL', prefix .. gone)
  end
end
return 1
