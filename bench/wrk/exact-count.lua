-- Shared by the scripts that must make an exact number of accounts (signup-users.lua for
-- bench/memory, preload-users.lua for bench/run's preload). Thread i sends `make_request(id, n)` as
-- its n-th request until it has sent its share of `count`; an answer counts when it is a 200 that
-- `accepts(body)`. A thread with its share counted creates `done_prefix`.<i> and stops; wrk itself
-- runs until -d or SIGINT, so the driver sends SIGINT once every file is there. Meanwhile a thread
-- that has sent its share sends `GET idle_path` (answered 404, nothing stored). A request that is
-- not counted is never made up for, so the driver's deadline fails the run.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

return function(count, done_prefix, idle_path, make_request, accepts)
  local share = common.split_among_threads()
  idle = wrk.format("GET", idle_path)

  function init(args)
    quota = share(count)
    sent, counted, finished = 0, 0, false
    -- wrk calls thread 0's request() once right after its init() to check what it returns, and
    -- never sends that request: give it the idle one, so that nothing is lost.
    verifying = (id == 0)
    if quota == 0 then finish() end
  end

  function finish()
    finished = true
    assert(io.open(done_prefix .. "." .. id, "w")):close()
    wrk.thread:stop()
  end

  function request()
    if verifying or sent >= quota then
      verifying = false
      return idle
    end
    sent = sent + 1
    return make_request(id, sent)
  end

  function response(status, headers, body)
    if finished or status ~= 200 or not accepts(body) then return end
    counted = counted + 1
    if counted == quota then finish() end
  end

  done = common.done
end
