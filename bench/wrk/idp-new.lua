-- signInWithIdp with Sign in with Apple for a NEW user on every request: an RS256 Apple ID
-- token for an email nobody used yet, with its raw nonce. The tokens are minted before the run
-- (idp-mint.lua); thread i sends the bodies of BENCH_IDP_BODIES-<BENCH_PHASE>.<i>, one line each,
-- in order. When a thread has sent them all it starts again from the first, and those requests
-- are returning users: the count of such requests is printed as `IDP reused=N`, and bench/run
-- refuses an emulator run with N > 0 (the ceiling, much faster, always cycles).
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
dofile(here .. "pregenerated.lua")("idp-new.lua", "BENCH_IDP_BODIES",
  "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key", "IDP")
