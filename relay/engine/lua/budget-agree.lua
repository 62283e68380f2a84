-- The cluster's plan: stored by the first member to ask, renewed by each member whose plan is the
-- same (so after a rolling change of plan it expires once no member of the old one is left).
-- KEYS: the plan. ARGV: this member's plan, TTL ms. Returns the cluster's plan.
local plan = redis.call('GET', KEYS[1])
if not plan then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
if plan == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return plan
