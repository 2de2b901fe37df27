-- signInWithIdp with Sign in with Apple for a NEW user on every request: an RS256 Apple ID
-- token for an email nobody used yet, with its raw nonce. The tokens are minted before the run
-- (idp-mint.lua); thread i sends the bodies of BENCH_IDP_BODIES-<BENCH_PHASE>.<i>, one line each,
-- in order, then its neighbour's backwards (pregenerated.lua). A token sent twice is a returning
-- user: the count of such requests is printed as `IDP reused=N`, and bench/run refuses an
-- emulator run with N > 0 (the ceiling, much faster, always comes round).
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
dofile(here .. "pregenerated.lua")("idp-new.lua", "BENCH_IDP_BODIES",
  "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key", "IDP")
