-- Not a scenario: the pre-flight of `email-link-signin` (bench/run runs it before the timed runs).
-- Makes BENCH_MINT_COUNT email sign-in codes for BENCH_EMAIL with the admin form of sendOobCode
-- (`projects/{BENCH_PROJECT}/accounts:sendOobCode`, `Authorization: Bearer owner`,
-- `returnOobLink: true`, which answers the code), and writes one signInWithEmailLink body per line to
-- BENCH_MINT_OUT.<thread> (thread = 0 … BENCH_WRK_THREADS-1). Each thread makes its share, closes
-- its file, creates BENCH_MINT_OUT.<thread>.done and stops sending; wrk itself runs until -d or
-- SIGINT, so bench/run sends SIGINT once every .done file is there (as with idp-mint.lua).
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local count = tonumber(common.require_env("BENCH_MINT_COUNT"))
local out = common.require_env("BENCH_MINT_OUT")
local project = common.require_env("BENCH_PROJECT")
local email = os.getenv("BENCH_EMAIL") or "bench@example.com"
local thread_count = tonumber(os.getenv("BENCH_WRK_THREADS") or "2")

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  quota = math.floor(count / thread_count) + ((id < count % thread_count) and 1 or 0)
  written = 0
  file = assert(io.open(out .. "." .. id, "w"))
  file:setvbuf("full")
  if quota == 0 then finish() end
end

function finish()
  file:close()
  assert(io.open(out .. "." .. id .. ".done", "w")):close()
  wrk.thread:stop()
end

local mint = wrk.format("POST", "/identitytoolkit.googleapis.com/v1/projects/" .. project .. "/accounts:sendOobCode",
  { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer owner" },
  '{"requestType":"EMAIL_SIGNIN","email":' .. common.json_string(email) .. ',"returnOobLink":true}')
local prefix = '{"email":' .. common.json_string(email) .. ',"oobCode":"'

function request()
  return mint
end

function response(status, headers, body)
  if written >= quota or status ~= 200 then return end
  local code = body:match('"oobCode"%s*:%s*"([^"]*)"')
  if code == nil then return end
  file:write(prefix, code, '"}\n')
  written = written + 1
  if written == quota then finish() end
end

done = common.done
