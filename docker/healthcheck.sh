#!/bin/bash
# Health check for the auth-emulator image: GET / on the emulator must answer 200.
# Plain bash (/dev/tcp), so the slim image needs no curl. Port: $1, else
# $AUTH_EMULATOR_PORT, else 9099.
port=${1:-${AUTH_EMULATOR_PORT:-9099}}
exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
printf 'GET / HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$port" >&3 || exit 1
IFS= read -r -t 5 status_line <&3 || exit 1
exec 3<&-
[[ $status_line == "HTTP/1."?" 200"* ]]
