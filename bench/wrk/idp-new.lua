-- signInWithIdp with Sign in with Apple for a NEW user on every request: an RS256 Apple ID
-- token for an email nobody used yet, with its raw nonce. The tokens are minted before the run
-- (idp-mint.lua); thread i sends the bodies of BENCH_IDP_BODIES-<BENCH_PHASE>.<i>, one line each,
-- in order. When a thread has sent them all it starts again from the first, and those requests
-- are returning users: the count of such requests is printed as `IDP reused=N`, and bench/run
-- refuses an emulator run with N > 0 (the ceiling, much faster, always cycles).
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local prefix = common.require_env("BENCH_IDP_BODIES") .. "-" .. (os.getenv("BENCH_PHASE") or "run")
local path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key"
local headers = { ["Content-Type"] = "application/json" }

local threads = {}
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  requests, reused = {}, 0
  local name = prefix .. "." .. id
  local file = io.open(name, "r")
  if file == nil then
    io.stderr:write("idp-new.lua: cannot read " .. name .. "\n")
    os.exit(2)
  end
  for line in file:lines() do
    if line ~= "" then requests[#requests + 1] = wrk.format("POST", path, headers, line) end
  end
  file:close()
  if #requests == 0 then
    io.stderr:write("idp-new.lua: no request bodies in " .. name .. "\n")
    os.exit(2)
  end
  sent = 0
end

function request()
  sent = sent + 1
  if sent > #requests then reused = reused + 1 end
  return requests[(sent - 1) % #requests + 1]
end

function done(summary, latency, requests_done)
  common.done(summary, latency, requests_done)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (thread:get("reused") or 0) end
  io.write(string.format("IDP reused=%d\n", total))
end
