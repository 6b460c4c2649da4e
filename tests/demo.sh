#!/usr/bin/env bash
# gitmem's main job, end to end, in a throwaway repository with a bare "server" remote that
# runs gitmem's pre-receive hook. Run by `make demo` (and by the test suite).
set -euo pipefail

work=$(mktemp -d "${TMPDIR:-/tmp}/gitmem-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=Alice GIT_AUTHOR_EMAIL=alice@example.com
export GIT_COMMITTER_NAME=Alice GIT_COMMITTER_EMAIL=alice@example.com

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# Each command is echoed as a shell would read it back: words with spaces or quotes in single
# quotes, so a line pasted from the demo runs as shown.
quoted() {
  local word out=()
  for word in "$@"; do
    if [[ $word =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then out+=("$word")
    else out+=("'${word//\'/\'\\\'\'}'"); fi
  done
  printf '$ %s\n' "${out[*]}"
}
show() { quoted "$@"; "$@"; }
fails() { quoted "$@"; if "$@"; then echo "demo: expected a refusal" >&2; exit 1; fi; }
# A shell line with pipes or redirections, echoed as written (its variables expanded) and run.
line() { printf '$ %s\n' "$1"; eval "$1"; }

step "a project with a server that enforces gitmem's rules"
git init -q --bare -b main "$work/shop.git"
(cd "$work/shop.git" && gitmem hooks install --server >/dev/null)
git clone -q "$work/shop.git" "$work/shop" 2>/dev/null
cd "$work/shop"
mkdir -p src && echo 'def pay(): ...' > src/payments.py
show gitmem init --hooks
show git add -A
show git commit -q -m "start the project and its memory"
show git push -q -u origin main

step "an agent proposes a lesson: one commit on its own branch, working tree untouched"
echo "# unfinished work" > src/wip.py
show gitmem propose --type decision --title "Retry payments with idempotency keys" \
  --applies-when "calling the payment provider" \
  --context "A timeout made us charge a customer twice." \
  --content "Send an idempotency key with every charge and retry with the same key." \
  --evidence "Incident 2026-11-02; src/payments.py" --file src/payments.py --tag payments --push
show git status --short

step "gitmem check accepts the candidate and refuses a secret"
line 'id=$(gitmem candidates --format json | python3 -c "import json,sys; print(json.load(sys.stdin)[0][\"id\"])")'
line "git show \"gitmem/\$id:.gitmem/candidates/\$id.md\" > '$work/draft.md'"
show gitmem check "$work/draft.md" || true
# a GitHub token of the documented shape, random (a repeated chunk would be a placeholder)
token="ghp_$(python3 -c 'import random, string; r = random.Random(38); print("".join(r.choices(string.ascii_letters + string.digits, k=36)))')"
fails gitmem propose --type method --title "Deploy with the bot account" \
  --applies-when "deploying" --content "Use the token $token"

step "a candidate carrying a secret, pushed by hand past the local hooks, is rejected by the server"
leaky=$(echo "$id" | sed 's/^shop-decision-\([0-9]*\)-.*/shop-method-\1-leaky/')  # same date
show git checkout -q -b "gitmem/$leaky"
show mkdir -p .gitmem/candidates
line "sed -e 's/$id/$leaky/' -e 's/shop-decision-/shop-method-/' \\
  -e 's/type: decision/type: method/' -e 's/^Send an idempotency key.*/Deploy with $token/' \\
  '$work/draft.md' > '.gitmem/candidates/$leaky.md'"
show git add .gitmem
show git commit -q --no-verify -m "leaky candidate"
fails git push -q --no-verify origin "gitmem/$leaky"
show git checkout -q main

step "a reviewer admits the candidate: one merge on main, pushed"
show gitmem admit "$id" --by human:bob --push
show git log --oneline --graph -3

step "a forged admitted entry pushed straight to main (hooks skipped) is rejected by the server"
forged=$(echo "$id" | sed 's/^shop-decision-\([0-9]*\)-.*/shop-method-\1-forged/')  # same date
show mkdir -p .gitmem/entries/method
line "sed -e 's/$id/$forged/' -e 's/shop-decision-/shop-method-/' \\
  -e 's/type: decision/type: method/' \\
  '.gitmem/entries/decision/$id.md' > '.gitmem/entries/method/$forged.md'"
show gitmem index
show git add -A
show git commit -q --no-verify -m "forged entry"
fails git push -q --no-verify origin main
show git reset -q --hard origin/main

step "the memory as agents see it"
if gitmem recall --help >/dev/null 2>&1; then
  show gitmem recall "charging a customer twice when the provider times out"
  show gitmem recall "which font does the marketing site use"
else
  show gitmem list
fi
echo
echo "demo: every step behaved as it should"
