"""firebase-tools v15.28.1 `src/emulator/auth/cloudFunctions.spec.ts`: one case, "should make a
request to the functions emulator".

That case tests an internal TypeScript class, not the HTTP API: it registers a fake Functions
emulator in firebase-tools' in-process `EmulatorRegistry`, calls `AuthCloudFunction.dispatch("create",
{localId: "foobar"})` directly, and checks (with nock) that a `user.create` event reached
`/functions/projects/project-foo/trigger_multicast`. The official emulator only dispatches those
events when the Functions emulator runs in the same firebase CLI process. auth-emulator is a
standalone binary and posts no `trigger_multicast` events, so non-blocking
`functions.auth.user().onCreate`/`onDelete` triggers do not fire with it (README, Compatibility).

What we port is the equivalent observable behaviour: a function configured on the project hears
about a user being created, with the user's uid, an empty-claims record and its metadata. That is
the blocking `beforeCreate` event.
"""

from upstream.upstream_support import KEY, PROJECT_ID, V1, expect_status, update_config


def test_should_make_a_request_to_the_functions_emulator(api, blocking_functions):
    update_config(api, PROJECT_ID, {"blockingFunctions": {"triggers": {
        "beforeCreate": {"functionUri": blocking_functions.url("/beforeCreate")}}}},
        "blockingFunctions.triggers")

    created = expect_status(200, api.post(f"{V1}/accounts:signUp", {"returnSecureToken": True}, query=KEY))

    [event] = blocking_functions.requests["/beforeCreate"]
    assert event["event_type"] == "beforeCreate"
    assert event["user_record"]["uid"] == created["localId"]
    assert event["user_record"]["custom_claims"] == {}
    assert isinstance(event["user_record"]["metadata"]["creation_time"], int)
