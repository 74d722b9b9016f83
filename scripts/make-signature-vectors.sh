#!/usr/bin/env bash
# Regenerates test/webhooks/signature-vectors.json: known-answer vectors for Service-Signature
# (service-api.md §5), computed by OpenSSL, a tool independent of the TypeScript signer, so the
# signer and the verifier are both checked against something they did not produce themselves.
#
#   digest = printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac "<secret>"
#
# Needs bash, openssl and jq. Usage: scripts/make-signature-vectors.sh [output.json]
set -euo pipefail
export LC_ALL=C.UTF-8

out="${1:-test/webhooks/signature-vectors.json}"

# Made-up secrets in the documented format (whsec_ prefix, keyed as text including the prefix).
SECRET='whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
OLD_SECRET='whsec_c2VjcmV0LWJlZm9yZS1yb3RhdGlvbg'
T=1792060212 # 2026-10-15T09:50:12Z

BODY_ASCII='{"id":"evt_ascii","message":"plain ASCII body"}'
BODY_UTF8='{"note":"Zoë Ångström — 休暇 🌴","quote":"\"ok\""}'
BODY_EMPTY=''
BODY_LEAVE='{"id":"6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04","type":"leave.approved","apiVersion":"2026-10-15","occurredAt":"2026-10-15T09:50:11.4821937Z","organizationId":"0b8e5d2a-61f4-4c3b-9e7a-2c1d4f6a8b90","data":{"leaveRequestId":"a3d9e1f0-5b2c-4e8a-9f17-6c4b2d8e0a15","employeeId":"c7b1f4e2-3a9d-4f60-8e25-1d7c9b3a5e48","leaveTypeId":"e2f8a6c4-1b3d-4a79-b5e0-9c2d7f4a1e63","leaveType":"Annual Leave","startDate":"2026-11-02T00:00:00","endDate":"2026-11-06T00:00:00","status":"Approved"}}'
# The same event with one field changed after signing, and re-serialized with indentation.
BODY_LEAVE_TAMPERED="${BODY_LEAVE/\"status\":\"Approved\"/\"status\":\"Rejected\"}"
BODY_LEAVE_PRETTY="$(printf '%s' "$BODY_LEAVE" | jq .)"

# hmac <timestamp> <body> <secret> -> lowercase hex digest, as printed by openssl
hmac() {
  printf '%s' "$1.$2" | openssl dgst -sha256 -hmac "$3" | awk '{print $NF}'
}

# vector <name> <note> <secret> <timestamp> <body> <header|null> <now> <reason|ok> [digest]
vector() {
  local header_json want_json digest_json
  if [ "$6" = null ]; then header_json=null; else header_json="$(jq -n --arg h "$6" '$h')"; fi
  if [ "$8" = ok ]; then want_json='{"ok":true}'; else want_json="$(jq -n --arg r "$8" '{ok:false,reason:$r}')"; fi
  if [ -n "${9:-}" ]; then digest_json="$(jq -n --arg d "$9" '$d')"; else digest_json=null; fi
  jq -n --arg name "$1" --arg note "$2" --arg secret "$3" --argjson timestamp "$4" --arg body "$5" \
    --argjson header "$header_json" --argjson now "$7" --argjson want "$want_json" --argjson digest "$digest_json" \
    '{name:$name, note:$note, secret:$secret, timestamp:$timestamp, body:$body, header:$header, now:$now, want:$want}
     + (if $digest == null then {} else {digest:$digest} end)'
}

D_ASCII="$(hmac "$T" "$BODY_ASCII" "$SECRET")"
D_UTF8="$(hmac "$T" "$BODY_UTF8" "$SECRET")"
D_EMPTY="$(hmac "$T" "$BODY_EMPTY" "$SECRET")"
D_LEAVE="$(hmac "$T" "$BODY_LEAVE" "$SECRET")"
D_LEAVE_OLD="$(hmac "$T" "$BODY_LEAVE" "$OLD_SECRET")"
D_UPPER="$(printf '%s' "$D_LEAVE" | tr 'a-f' 'A-F')"

# One case a line: name|timestamp|body (a variable's name)|header ("null": none)|now|want (ok or the
# reason of WebhookSignatureError)|digest sign() must produce (positive cases)|note. Each is signed
# with $SECRET; the note is last, so it may hold the separator.
cases() {
  cat <<CASES
ascii body|$T|BODY_ASCII|t=$T,v1=$D_ASCII|$((T + 5))|ok|$D_ASCII|Plain ASCII JSON body.
non-ASCII UTF-8 body|$T|BODY_UTF8|t=$T,v1=$D_UTF8|$((T + 5))|ok|$D_UTF8|The HMAC covers the UTF-8 bytes, not UTF-16 code units.
empty body|$T|BODY_EMPTY|t=$T,v1=$D_EMPTY|$((T + 5))|ok|$D_EMPTY|Signed text is just "<t>.".
leave.approved event|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE|$((T + 2))|ok|$D_LEAVE|A realistic delivery body, apiVersion 2026-10-15.
rotation: second v1 matches|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE_OLD,v1=$D_LEAVE|$((T + 2))|ok|$D_LEAVE|Sender rotating secrets signs with the old and the new one.
unknown scheme ignored|$T|BODY_LEAVE|t=$T,v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39,v1=$D_LEAVE|$((T + 2))|ok|$D_LEAVE|A v0= entry is skipped, as Stripe does; the v1 decides.
space after comma tolerated|$T|BODY_LEAVE|t=$T, v1=$D_LEAVE|$((T + 2))|ok|$D_LEAVE|Whitespace around entries is ignored; inside an entry it is not.
exactly 300 s old|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE|$((T + 300))|ok|$D_LEAVE|The tolerance is inclusive: |now - t| = 300 passes.
exactly 300 s in the future|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE|$((T - 300))|ok|$D_LEAVE|Clock skew the other way, same inclusive bound.
wrong secret|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE_OLD|$((T + 2))|no_matching_signature||Header signed with another secret than the receiver's.
tampered body|$T|BODY_LEAVE_TAMPERED|t=$T,v1=$D_LEAVE|$((T + 2))|no_matching_signature||status changed from Approved to Rejected after signing.
whitespace-changed JSON body|$T|BODY_LEAVE_PRETTY|t=$T,v1=$D_LEAVE|$((T + 2))|no_matching_signature||Same JSON value re-serialized with indentation: the bytes differ, so it fails (verify raw bytes, never re-serialized JSON).
timestamp changed|$((T + 1))|BODY_LEAVE|t=$((T + 1)),v1=$D_LEAVE|$((T + 2))|no_matching_signature||t moved by one second keeps the digest of the original t.
uppercase hex|$T|BODY_LEAVE|t=$T,v1=$D_UPPER|$((T + 2))|no_matching_signature||The spec signs lowercase hex; the hex text is compared as is, so uppercase does not match.
truncated digest|$T|BODY_LEAVE|t=$T,v1=${D_LEAVE:0:63}|$((T + 2))|no_matching_signature||A v1 of the wrong length simply does not match.
expired timestamp|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE|$((T + 301))|timestamp_too_old||Valid signature, 301 s old: a replay.
future timestamp|$T|BODY_LEAVE|t=$T,v1=$D_LEAVE|$((T - 301))|timestamp_in_future||Valid signature, 301 s ahead of the receiver's clock.
missing header|$T|BODY_LEAVE|null|$((T + 2))|missing_header||No Service-Signature header at all.
empty header|$T|BODY_LEAVE||$((T + 2))|missing_header||An empty header value counts as missing.
malformed header: no t|$T|BODY_LEAVE|v1=$D_LEAVE|$((T + 2))|malformed_header||Only a v1 entry.
malformed header: not key=value|$T|BODY_LEAVE|not a signature|$((T + 2))|malformed_header||Free text instead of entries.
malformed header: two t entries|$T|BODY_LEAVE|t=$T,t=$T,v1=$D_LEAVE|$((T + 2))|malformed_header||Two timestamps would make the signed time ambiguous.
non-integer t (fraction)|$T|BODY_LEAVE|t=$T.5,v1=$D_LEAVE|$((T + 2))|timestamp_not_integer||t must be whole Unix seconds.
non-integer t (text)|$T|BODY_LEAVE|t=yesterday,v1=$D_LEAVE|$((T + 2))|timestamp_not_integer||t must be digits.
missing v1|$T|BODY_LEAVE|t=$T,v0=$D_LEAVE|$((T + 2))|no_v1_signature||Only an unknown scheme carries the digest.
CASES
}

cases | while IFS='|' read -r name timestamp body header now want digest note; do
  vector "$name" "$note" "$SECRET" "$timestamp" "${!body}" "$header" "$now" "$want" "$digest"
done | jq -s --arg openssl "$(openssl version)" '{
  description: "Known-answer vectors for the Service-Signature header (service-api.md section 5). digest = printf %s \"<timestamp>.<body>\" | openssl dgst -sha256 -hmac \"<secret>\". Each vector is checked with verify(body, header, secret, {now}); positive ones also with sign(body, secret, {timestamp}) === \"t=<timestamp>,v1=<digest>\".",
  generatedBy: "scripts/make-signature-vectors.sh",
  tool: $openssl,
  vectors: .
}' >"$out"

echo "wrote $(jq '.vectors | length' "$out") vectors to $out"
