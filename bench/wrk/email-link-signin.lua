-- signInWithEmailLink with a FRESH sign-in code on every request, for a returning user (bench/run's
-- pre-flight request signs BENCH_EMAIL up with its own code). A code works once, so they are made
-- before the run (email-link-mint.lua); thread i sends the bodies of
-- BENCH_EMAIL_LINK_BODIES-<BENCH_PHASE>.<i>, one line each, in order. When a thread has sent them
-- all it starts again from the first, and those requests reuse a spent code (400
-- INVALID_OOB_CODE): the count of such requests is printed as `EMAIL_LINK reused=N`, and bench/run
-- refuses an emulator run with N > 0 (the ceiling, much faster, always cycles).
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local prefix = common.require_env("BENCH_EMAIL_LINK_BODIES") .. "-" .. (os.getenv("BENCH_PHASE") or "run")
local path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key=fake-api-key"
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
    io.stderr:write("email-link-signin.lua: cannot read " .. name .. "\n")
    os.exit(2)
  end
  for line in file:lines() do
    if line ~= "" then requests[#requests + 1] = wrk.format("POST", path, headers, line) end
  end
  file:close()
  if #requests == 0 then
    io.stderr:write("email-link-signin.lua: no request bodies in " .. name .. "\n")
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
  io.write(string.format("EMAIL_LINK reused=%d\n", total))
end
