-- Shared by the scenarios that send request bodies made before the run (idp-new: minted tokens;
-- email-link-signin: sign-in codes). Thread i sends the bodies of <prefix>-<BENCH_PHASE>.<i>, one
-- line each, in order. Threads seldom get the same share of the throughput, so a thread that has
-- sent all of its own bodies goes on with its neighbour's (thread i+1's, the last thread's
-- neighbour being thread 0), from that file's last line backwards; only when that runs out too
-- does it start again from its own first line. A body meant for one use is used twice when a
-- file's owner (forwards) and its neighbour (backwards) meet, or a thread comes round again:
-- `done` counts both exactly and prints `<label> reused=N`, which bench/run refuses in an emulator
-- run (the ceiling, much faster, always comes round).
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

return function(script, bodies_env, path, label)
  local prefix = common.require_env(bodies_env) .. "-" .. (os.getenv("BENCH_PHASE") or "run")
  local headers = { ["Content-Type"] = "application/json" }
  local threads = {}
  local next_id = 0

  function setup(thread)
    thread:set("id", next_id)
    thread:set("thread_count", tonumber(os.getenv("BENCH_WRK_THREADS") or "2"))
    next_id = next_id + 1
    table.insert(threads, thread)
  end

  local function read_requests(number)
    local name = prefix .. "." .. number
    local file = io.open(name, "r")
    if file == nil then
      io.stderr:write(script .. ": cannot read " .. name .. "\n")
      os.exit(2)
    end
    local requests = {}
    for line in file:lines() do
      if line ~= "" then requests[#requests + 1] = wrk.format("POST", path, headers, line) end
    end
    file:close()
    if #requests == 0 then
      io.stderr:write(script .. ": no request bodies in " .. name .. "\n")
      os.exit(2)
    end
    return requests
  end

  function init(args)
    own = read_requests(id)
    neighbour = thread_count > 1 and read_requests((id + 1) % thread_count) or {}
    own_count, neighbour_count = #own, #neighbour
    own_sent, neighbour_sent, cycled = 0, 0, 0
  end

  function request()
    if own_sent < #own then
      own_sent = own_sent + 1
      return own[own_sent]
    end
    if neighbour_sent < #neighbour then
      neighbour_sent = neighbour_sent + 1
      return neighbour[#neighbour - neighbour_sent + 1]
    end
    cycled = cycled + 1
    return own[(cycled - 1) % #own + 1]
  end

  function done(summary, latency, requests_done)
    common.done(summary, latency, requests_done)
    local total = 0
    for index, thread in ipairs(threads) do
      total = total + (thread:get("cycled") or 0)
      -- Thread index-1 (or the last) took this thread's file from the end.
      local taker = threads[(index - 2) % #threads + 1]
      if taker ~= thread then
        local overlap = (thread:get("own_sent") or 0) + (taker:get("neighbour_sent") or 0) - (thread:get("own_count") or 0)
        if overlap > 0 then total = total + overlap end
      end
    end
    io.write(string.format("%s reused=%d\n", label, total))
  end
end
