-- The history/symbols cache as `MemoryCache` keeps it (a segmented LRU bounded by bytes), shared.
-- KEYS: probation and protected (sorted sets, score = a use counter: lowest = least recently
-- used), sizes (hash: key → bytes), stats (hash: `prob`, `prot` bytes and the `tick` counter).
-- ARGV starts with: value-key prefix, key, max bytes, protected share. Values are plain keys
-- (`prefix .. key`) with a TTL; one that expired is forgotten when next read or evicted, and
-- counts against the bound until then (the bound is never exceeded, only under-used).
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
