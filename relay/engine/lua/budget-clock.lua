-- The cluster budget's clock is Redis's (TIME), never a member's: a member whose clock runs ahead
-- would otherwise drop the minute's stamps as old and spend the minute again. Defines `clock()`:
-- now in epoch ms, and the plan's day (the Tehran calendar day, +03:30 all year since 2022) as
-- YYYY-MM-DD (days from the epoch to a civil date: Howard Hinnant's algorithm).
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
