-- Not a scenario: the pre-flight of `email-link-signin` (bench/run runs it before the timed runs).
-- Makes BENCH_MINT_COUNT email sign-in codes for BENCH_EMAIL with the admin form of sendOobCode
-- (`projects/{BENCH_PROJECT}/accounts:sendOobCode`, `Authorization: Bearer owner`,
-- `returnOobLink: true`, which answers the code), and writes one signInWithEmailLink body per line
-- (minting.lua: the threads, files and stopping).
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
local common = dofile(here .. "common.lua")
local project = common.require_env("BENCH_PROJECT")
local email = os.getenv("BENCH_EMAIL") or "bench@example.com"
local mint = wrk.format("POST", "/identitytoolkit.googleapis.com/v1/projects/" .. project .. "/accounts:sendOobCode",
  { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer owner" },
  '{"requestType":"EMAIL_SIGNIN","email":' .. common.json_string(email) .. ',"returnOobLink":true}')
local prefix = '{"email":' .. common.json_string(email) .. ',"oobCode":"'

dofile(here .. "minting.lua")(function() return mint end, function(body)
  local code = body:match('"oobCode"%s*:%s*"([^"]*)"')
  if code == nil then return nil end
  return prefix .. code .. '"}'
end)
