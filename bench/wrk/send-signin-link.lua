-- sendOobCode EMAIL_SIGNIN with the key, as an app's sendSignInLink makes it: every request makes a
-- new sign-in code and puts a new message (with its action link and app link) in the outbox. The
-- same email every time is fine: each call is a new code and a new message.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local email = os.getenv("BENCH_EMAIL") or "bench@example.com"

common.post_json("/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key",
  '{"requestType":"EMAIL_SIGNIN","email":' .. common.json_string(email) ..
  ',"continueUrl":"https://app.example.com/finishSignIn","iOSBundleId":"com.example.app",' ..
  '"canHandleCodeInApp":true,"clientType":"CLIENT_TYPE_IOS"}')

done = common.done
