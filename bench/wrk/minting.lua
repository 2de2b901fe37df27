-- Shared by the pre-flight scripts that make one-use request bodies before a timed run
-- (idp-mint.lua, email-link-mint.lua). Thread i makes its share of BENCH_MINT_COUNT bodies:
-- it sends `make_request(id, n)` for its n-th request, turns each 200 answer into one line with
-- `line_from(body)` (nil: skip that answer) and writes it to BENCH_MINT_OUT.<i>. When its share is
-- written it closes the file, creates BENCH_MINT_OUT.<i>.done and stops; wrk itself runs until -d
-- or SIGINT, so bench/run sends SIGINT once every .done file is there.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

return function(make_request, line_from)
  local count = tonumber(common.require_env("BENCH_MINT_COUNT"))
  local out = common.require_env("BENCH_MINT_OUT")
  local share = common.split_among_threads()

  function init(args)
    quota = share(count)
    sent, written = 0, 0
    file = assert(io.open(out .. "." .. id, "w"))
    file:setvbuf("full")
    if quota == 0 then finish() end
  end

  function finish()
    file:close()
    assert(io.open(out .. "." .. id .. ".done", "w")):close()
    wrk.thread:stop()
  end

  function request()
    sent = sent + 1
    return make_request(id, sent)
  end

  function response(status, headers, body)
    if written >= quota or status ~= 200 then return end
    local line = line_from(body)
    if line == nil then return end
    file:write(line, "\n")
    written = written + 1
    if written == quota then finish() end
  end

  done = common.done
end
