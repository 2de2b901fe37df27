-- Not a scenario: the pre-flight of `idp-new` (bench/run runs it before the timed runs).
-- Mints BENCH_MINT_COUNT Apple ID tokens, each for a new email and with its own raw nonce, with
-- the fake provider's `POST /emulator/v1/idp/apple.com/tokens`, and writes one signInWithIdp
-- body per line (minting.lua: the threads, files and stopping).
-- BENCH_MINT_TAG keeps the emails of two mint runs apart.
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
local tag = os.getenv("BENCH_MINT_TAG") or "m"
local headers = { ["Content-Type"] = "application/json" }

dofile(here .. "minting.lua")(function(id, sent)
  local n = tag .. "-" .. id .. "-" .. sent
  return wrk.format("POST", "/emulator/v1/idp/apple.com/tokens", headers,
    '{"email":"new-' .. n .. '@bench.example.com","nonce":"raw-nonce-' .. n .. '","expiresInSeconds":3600}')
end, function(body)
  local post_body = body:match('"postBody"%s*:%s*"([^"]*)"')
  if post_body == nil then return nil end
  return '{"requestUri":"http://localhost","postBody":"' .. post_body .. '","returnSecureToken":true,"returnIdpCredential":true}'
end)
