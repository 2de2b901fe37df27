-- Not a scenario: bench/run's preload (BENCH_USERS). Creates BENCH_PRELOAD_BATCHES batches of
-- BENCH_PRELOAD_BATCH accounts with the admin `accounts:batchCreate` (`Authorization: Bearer
-- owner`), shared among the wrk threads: account `p<thread>b<batch>u<i>`, email
-- `p<thread>b<batch>u<i>@preload.example.com`, verified, with a display name. A thread that has its
-- share of answers with every entry written creates BENCH_DONE_PREFIX.<thread> and stops; once a
-- thread has sent its share, its connections send `GET /bench-preload-idle` (answered 404, nothing
-- stored) until then. bench/run sends SIGINT once every file is there.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")
local batches = tonumber(common.require_env("BENCH_PRELOAD_BATCHES"))
local batch_size = tonumber(common.require_env("BENCH_PRELOAD_BATCH"))
local project = common.require_env("BENCH_PROJECT")
local done_prefix = common.require_env("BENCH_DONE_PREFIX")
local thread_count = tonumber(os.getenv("BENCH_WRK_THREADS") or "2")
local path = "/identitytoolkit.googleapis.com/v1/projects/" .. project .. "/accounts:batchCreate"
local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer owner" }
idle = wrk.format("GET", "/bench-preload-idle")

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  quota = math.floor(batches / thread_count) + ((id < batches % thread_count) and 1 or 0)
  sent, created, finished = 0, 0, false
  -- wrk calls thread 0's request() once right after its init() to check what it returns, and
  -- never sends that request: give it the idle one, so that no batch is lost.
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
  local users = {}
  for i = 1, batch_size do
    local name = "p" .. id .. "b" .. sent .. "u" .. i
    users[i] = '{"localId":"' .. name .. '","email":"' .. name .. '@preload.example.com","emailVerified":true,'
      .. '"displayName":"Preloaded ' .. name .. '","createdAt":"1700000000000"}'
  end
  return wrk.format("POST", path, headers, '{"users":[' .. table.concat(users, ",") .. ']}')
end

-- Only a batch is answered 200; it counts only when every entry was written (`"error": []`).
-- A batch that is not never gets made up for, so bench/run's deadline fails the preload.
function response(status, headers, body)
  if finished or status ~= 200 then return end
  if not body:find('"error"%s*:%s*%[%s*%]') then
    io.stderr:write("preload: a batch had failed entries: " .. body:sub(1, 300) .. "\n")
    return
  end
  created = created + 1
  if created == quota then finish() end
end

done = common.done
