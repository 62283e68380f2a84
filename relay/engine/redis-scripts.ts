/**
 * The Lua scripts of the Redis engine. Each runs atomically in Redis, which is what makes the
 * fencing real: the check "is my lock value still the current one?" and the write it guards
 * (counting an upstream request, numbering events) happen in one step, so a leader that was paused
 * or cut off and has not yet noticed can never spend or publish beside its successor.
 *
 * A lock value is `<fencing token>:<process id>`: the token comes from INCR (monotonic, and kept
 * above every token a process has seen, even after Redis lost its data), the process id makes two
 * holders distinct even if a restart ever handed out a token twice.
 */

/**
 * KEYS: lock, fence counter, the member's intact mark (set once it wrote back what it holds:
 * missing, Redis lost its data and this member may not lead yet). ARGV: ttl ms, process id,
 * highest token seen. Returns the lock value or nil.
 */
export const ACQUIRE = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 0 then return false end
local t = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if t <= floor then t = floor + 1; redis.call('SET', KEYS[2], t) end
local value = t .. ':' .. ARGV[2]
redis.call('SET', KEYS[1], value, 'PX', ARGV[1])
return value`;

/** KEYS: lock. ARGV: lock value, ttl ms. 1 when still held (and extended), else 0. */
export const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS: lock. ARGV: lock value. Gives the lock up at once (graceful shutdown: fast takeover). */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * The cluster budget's clock is Redis's (TIME), never a member's: a member whose clock runs ahead
 * would otherwise drop the minute's stamps as old and spend the minute again. Defines `clock()`:
 * now in epoch ms, and the plan's day (the Tehran calendar day, +03:30 all year since 2022) as
 * YYYY-MM-DD (days from the epoch to a civil date: Howard Hinnant's algorithm).
 */
export const BUDGET_CLOCK = `
local function clock()
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local z = math.floor((now + 12600000) / 86400000) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return now, string.format('%04d-%02d-%02d', y, m, d)
end
`;

/**
 * One upstream request counted, fenced, by Redis's clock, within the cluster's limits. KEYS: lock,
 * minute window (sorted set of stamps), day (hash: `day` name and `count`), the cluster's limits.
 * ARGV: lock value, per-minute limit, per-day limit (-1: none), unique member, channel, the
 * member's plan ('' : unchecked), the plan's TTL ms. The cluster's plan is stored by the first
 * member to spend (and renewed by each that agrees); a member whose plan differs spends nothing.
 * The spend is PUBLISHed on the channel as `<now> <member> <day> <count>`, so every member holds
 * the counts should Redis lose them. Returns {1, day count, now, day} (counted), {0, retry-after ms}
 * (budget spent), {-1, 0} (fenced: not the leader) or {-2, 0} (another plan than the cluster's).
 */
export const TAKE = `${BUDGET_CLOCK}
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
return {1, count, now, day}`;

/** KEYS: minute window, day. By Redis's clock. Returns {minute, day count}. */
export const SPENT = `${BUDGET_CLOCK}
local now, today = clock()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
local count = 0
if redis.call('HGET', KEYS[2], 'day') == today then count = tonumber(redis.call('HGET', KEYS[2], 'count') or '0') end
return {redis.call('ZCARD', KEYS[1]), count}`;

/**
 * The cluster's plan: stored by the first member to ask, renewed by each member whose plan is the
 * same (so after a rolling change of plan it expires once no member of the old one is left).
 * KEYS: the plan. ARGV: this member's plan, TTL ms. Returns the cluster's plan.
 */
export const AGREE = `
local plan = redis.call('GET', KEYS[1])
if not plan then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
if plan == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return plan`;

/**
 * Writes back what a member holds of the budget (Redis may have restarted empty) and returns what
 * Redis holds then. It only ever raises the counts (a union of stamps, the later day, the larger
 * count), so it needs no fencing. KEYS: minute window, day. ARGV: day name ('' = none), count,
 * then per stamp: ms, member. Returns {day name ('' = none), count, member, ms, member, ms...}.
 */
export const MERGE = `
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
return out`;

/**
 * Merges quotes by `updated_at` (the same time with other JSON: a correction, applied) and numbers
 * the changes, fenced unless ARGV[1] is '' (a resync seeds known quotes, numbering nothing, and
 * only where Redis holds none as new: a member's copy never undoes a correction it missed).
 * KEYS: lock, id counter, times hash, quotes hash, events (sorted set by id). ARGV: lock value,
 * received-at ms, id floor, buffer size, then per quote: symbol, updated-at ms, JSON. Returns the
 * new id per quote (0: not newer), or the error FENCED.
 */
export const APPLY = `
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
return out`;

/**
 * KEYS: id counter, events. ARGV: last id. Returns {current id, oldest held id (0: none), events
 * after the last id...} in one read, so "is it still held?" and the events agree.
 */
export const SINCE = `
local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local out = {seq, first[2] and tonumber(first[2]) or 0}
for _, e in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf')) do out[#out + 1] = e end
return out`;

/**
 * The history/symbols cache as `MemoryCache` keeps it (a segmented LRU bounded by bytes), shared.
 * KEYS: probation and protected (sorted sets, score = a use counter: lowest = least recently
 * used), sizes (hash: key → bytes), stats (hash: `prob`, `prot` bytes and the `tick` counter).
 * ARGV starts with: value-key prefix, key, max bytes, protected share. Values are plain keys
 * (`prefix .. key`) with a TTL; one that expired is forgotten when next read or evicted, and
 * counts against the bound until then (the bound is never exceeded, only under-used).
 */
const CACHE_COMMON = `
local prob, prot, sizes, stats = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local prefix, member, max, share = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local function num(key, field) return tonumber(redis.call('HGET', key, field) or '0') end
local function forget(m)
  local size = num(sizes, m)
  if redis.call('ZREM', prot, m) == 1 then redis.call('HINCRBY', stats, 'prot', -size) end
  if redis.call('ZREM', prob, m) == 1 then redis.call('HINCRBY', stats, 'prob', -size) end
  redis.call('HDEL', sizes, m)
end
local function balance()
  while num(stats, 'prot') > max * share do
    local first = redis.call('ZRANGE', prot, 0, 0)[1]
    if not first then break end
    local size = num(sizes, first)
    redis.call('ZREM', prot, first)
    redis.call('HINCRBY', stats, 'prot', -size)
    redis.call('ZADD', prob, redis.call('HINCRBY', stats, 'tick', 1), first)
    redis.call('HINCRBY', stats, 'prob', size)
  end
  while num(stats, 'prob') + num(stats, 'prot') > max do
    local first = redis.call('ZRANGE', prob, 0, 0)[1] or redis.call('ZRANGE', prot, 0, 0)[1]
    if not first then break end
    redis.call('DEL', prefix .. first)
    forget(first)
  end
end
`;

/** Stores an entry (on probation, or kept where it was). ARGV after the common ones: value, bytes, ttl ms. */
export const CACHE_SET = `${CACHE_COMMON}
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
return 1`;

/** A visitor's read: returns the value (or nil) and counts the use (a hit on probation promotes it). */
export const CACHE_GET = `${CACHE_COMMON}
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
return value`;

/**
 * The day's record as `MemoryRecord` keeps it (`record.ts`): per symbol a sorted set of 5-minute
 * bars (score = start ms, member `t|first|last|open|high|low|close`), merged by the same rules
 * (open of the first change, close of the last, by id; the extremes compared as exact decimals),
 * trimmed to the 24 h before the symbol's newest bar and to a count, with a TTL; an index (sorted
 * set: symbol → a write counter) holds at most a number of symbols, the least recently changed
 * going first. KEYS: index, write counter. ARGV: bar-key prefix, max symbols, max bars, window ms, ttl ms, then per
 * bar: symbol, t, first, last, open, high, low, close. Prices are checked before (`record.ts`).
 */
export const RECORD = `
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
return 1`;
