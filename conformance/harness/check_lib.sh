# Sourced by the test scripts (`source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"`). It
# gives them:
#   $tmp    a scratch directory of their own, removed when the script exits (after the
#           script's `cleanup` function, if it defines one: processes it started, mounts);
#   $fail   0; a failed check sets it to 1; the script's exit status;
#   check NAME CONDITION   evaluates CONDITION (a shell test, as text) and prints "ok   NAME"
#           or "FAIL: NAME";
#   check_rc NAME STATUS [DETAIL]   the same for a condition already run: STATUS is its exit
#           status (taken before anything else runs); a failure also prints DETAIL's first 20
#           lines;
#   bad MESSAGE            prints "FAIL: MESSAGE" and sets fail=1.
tmp=$(mktemp -d)
trap 'if declare -F cleanup >/dev/null; then cleanup; fi; rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL: $1"; fail=1; fi; }
check_rc() {
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL: $1"; head -20 <<<"${3:-}"; fail=1; fi
}
bad() {
  echo "FAIL: $*"
  fail=1
}
