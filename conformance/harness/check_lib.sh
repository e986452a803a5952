# Sourced by the test scripts: `check NAME CONDITION` evaluates CONDITION (a shell test, as
# text) and prints "ok   NAME" or "FAIL: NAME"; a failure sets fail=1, the script's exit status.
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL: $1"; fail=1; fi; }
