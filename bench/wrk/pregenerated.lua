-- Shared by the scenarios that send request bodies made before the run (idp-new: minted tokens;
-- email-link-signin: sign-in codes). Thread i sends the bodies of <prefix>-<BENCH_PHASE>.<i>, one
-- line each, in order. When a thread has sent them all it starts again from the first; such
-- requests reuse a body meant for one use, and their count is printed as `<label> reused=N`, which
-- bench/run refuses in an emulator run (the ceiling, much faster, always cycles).
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

return function(script, bodies_env, path, label)
  local prefix = common.require_env(bodies_env) .. "-" .. (os.getenv("BENCH_PHASE") or "run")
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
      io.stderr:write(script .. ": cannot read " .. name .. "\n")
      os.exit(2)
    end
    for line in file:lines() do
      if line ~= "" then requests[#requests + 1] = wrk.format("POST", path, headers, line) end
    end
    file:close()
    if #requests == 0 then
      io.stderr:write(script .. ": no request bodies in " .. name .. "\n")
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
    io.write(string.format("%s reused=%d\n", label, total))
  end
end
