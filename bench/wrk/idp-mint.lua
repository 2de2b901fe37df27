-- Not a scenario: the pre-flight of `idp-new` (bench/run runs it before the timed runs).
-- Mints BENCH_MINT_COUNT Apple ID tokens, each for a new email and with its own raw nonce, with
-- the fake provider's `POST /emulator/v1/idp/apple.com/tokens`, and writes one signInWithIdp
-- body per line to BENCH_MINT_OUT.<thread> (thread = 0 … BENCH_WRK_THREADS-1). Each thread
-- mints its share, closes its file, creates BENCH_MINT_OUT.<thread>.done and stops sending; wrk
-- itself runs until -d or SIGINT, so bench/run sends SIGINT once every .done file is there.
-- BENCH_MINT_TAG keeps the emails of two mint runs apart.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local count = tonumber(common.require_env("BENCH_MINT_COUNT"))
local out = common.require_env("BENCH_MINT_OUT")
local tag = os.getenv("BENCH_MINT_TAG") or "m"
local thread_count = tonumber(os.getenv("BENCH_WRK_THREADS") or "2")

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  quota = math.floor(count / thread_count) + ((id < count % thread_count) and 1 or 0)
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

local headers = { ["Content-Type"] = "application/json" }

function request()
  sent = sent + 1
  local n = tag .. "-" .. id .. "-" .. sent
  return wrk.format("POST", "/emulator/v1/idp/apple.com/tokens", headers,
    '{"email":"new-' .. n .. '@bench.example.com","nonce":"raw-nonce-' .. n .. '","expiresInSeconds":3600}')
end

function response(status, headers, body)
  if written >= quota or status ~= 200 then return end
  local post_body = body:match('"postBody"%s*:%s*"([^"]*)"')
  if post_body == nil then return end
  file:write('{"requestUri":"http://localhost","postBody":"', post_body,
    '","returnSecureToken":true,"returnIdpCredential":true}\n')
  written = written + 1
  if written == quota then finish() end
end

done = common.done
