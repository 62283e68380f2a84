-- The Lua scripts of the Redis engine. Each runs atomically in Redis, which is what makes the
-- fencing real: the check "is my lock value still the current one?" and the write it guards
-- (counting an upstream request, numbering events) happen in one step, so a leader that was paused
-- or cut off and has not yet noticed can never spend or publish beside its successor.
--
-- A lock value is `<fencing token>:<process id>`: the token comes from INCR (monotonic, and kept
-- above every token a process has seen, even after Redis lost its data), the process id makes two
-- holders distinct even if a restart ever handed out a token twice.
-- /
--
-- /**
-- KEYS: lock, fence counter, the member's intact mark (set once it wrote back what it holds:
-- missing, Redis lost its data and this member may not lead yet). ARGV: ttl ms, process id,
-- highest token seen. Returns the lock value or nil.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 0 then return false end
local t = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if t <= floor then t = floor + 1; redis.call('SET', KEYS[2], t) end
local value = t .. ':' .. ARGV[2]
redis.call('SET', KEYS[1], value, 'PX', ARGV[1])
return value
