-- Not a scenario: bench/memory's load. Signs up BENCH_USER_COUNT distinct email/password users
-- (`u<thread>-<n>@memory.example.com`, each answer with its refresh token), shared among the wrk
-- threads. A thread that has its share of 200 answers creates BENCH_DONE_PREFIX.<thread> and
-- stops; wrk itself runs until -d or SIGINT, so bench/memory sends SIGINT once every file is there.
-- Once a thread has sent its share, its connections send `GET /memory-bench-idle` (answered 404,
-- nothing stored) until then, so exactly BENCH_USER_COUNT accounts are made.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")
local count = tonumber(common.require_env("BENCH_USER_COUNT"))
local done_prefix = common.require_env("BENCH_DONE_PREFIX")
local thread_count = tonumber(os.getenv("BENCH_WRK_THREADS") or "2")
local path = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"
local headers = { ["Content-Type"] = "application/json" }
idle = wrk.format("GET", "/memory-bench-idle")

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  quota = math.floor(count / thread_count) + ((id < count % thread_count) and 1 or 0)
  sent, created, finished = 0, 0, false
  -- wrk calls thread 0's request() once right after its init() to check what it returns, and
  -- never sends that request: give it the idle one, so that no account is lost.
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
  return wrk.format("POST", path, headers,
    '{"email":"u' .. id .. '-' .. sent .. '@memory.example.com","password":"secret123","returnSecureToken":true}')
end

-- Only a sign-up is answered 200; a failed one is never made up for, so the run times out.
function response(status, headers, body)
  if finished or status ~= 200 then return end
  created = created + 1
  if created == quota then finish() end
end

done = common.done
