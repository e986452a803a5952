#!/usr/bin/env bash
# Out of memory told apart from a crash (docs/bad-input.md, "Plugins and backends"):
#  1. a plugin that mallocs one 1 GiB block under --memory-limit 512M and writes to it without
#     a NULL check (its failed allocation is far from the limit: there was room for 1/8 of it)
#     is out_of_memory, never crash, and the message names the limit;
#  2. the oracle on a big ExtractImagePatches file at --memory-limit 256M (the output fits, the
#     worker's encoding of it does not) is out_of_memory, with no std::terminate;
#  3. under a lower inherited limit (ulimit -S -v) the worker keeps it, and the message names
#     that limit, not --memory-limit.
#   memory_limit_test.sh DMCONF ALLOC_BIG_PLUGIN
set -uo pipefail
dmconf="$1"; alloc_big="$2"
if [ "${DMCONF_MEMORY_LIMIT_APPLIES:-1}" != 1 ]; then
  echo "memory_limit_test: the memory limit does not apply in this build (ASan)"; exit 77
fi
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1
verdicts() {  # verdicts REPORT: "out_of_memory=N crash=M" of the run's cases
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
cs = [c for b in r["backends"] for c in b["cases"]]
print("out_of_memory=%d crash=%d" % (sum(c["verdict"] == "out_of_memory" for c in cs),
                                      sum(c["verdict"] == "crash" for c in cs)))' "$1"
}

# 1. One failed malloc far from the limit.
"$dmconf" run --backend-lib "$alloc_big" --ops d2s --count 3 --directed-count 0 --quiet \
  --memory-limit 512M --timeout 60 --no-shrink --report big.json >big.out 2>&1
v=$(verdicts big.json)
[[ "$v" == "out_of_memory="[1-9]*" crash=0" ]] && grep -q "limit of 536870912 bytes (--memory-limit)" big.out
check_rc "an unchecked 1 GiB malloc at 512M: $v" $? "$(head -c 1500 big.out)"

# 2. The oracle's own allocations: a 62 MB ExtractImagePatches output at 256M.
python3 - <<'PY'
W, k = 700, 4
o = W - k + 1
with open("eip.json", "w") as f:
    f.write('{"schema":"dmconf-vector/1","id":"big.eip","op":"ExtractImagePatches","version":3,'
            '"attributes":{"sizes":[%d,%d],"strides":[1,1],"rates":[1,1],"auto_pad":"valid"},'
            '"inputs":[{"name":"data","constant":false,"type":"f64","shape":[1,1,%d,%d],"data":['
            % (k, k, W, W))
    f.write(",".join(["0"] * (W * W)))
    f.write(']}],"expectation":{"kind":"valid","output":{"type":"f64","shape":[1,%d,%d,%d],'
            '"data":[' % (k * k, o, o))
    f.write(",".join(["0"] * (k * k * o * o)))
    f.write(']}},"provenance":{"kind":"hand_written","note":"big"},"classes":[]}\n')
PY
"$dmconf" run --vectors eip.json --backend oracle --memory-limit 256M --no-shrink \
  --report eip-report.json --failures eip-failures >eip.out 2>&1
v=$(verdicts eip-report.json)
! grep -q "terminate called" eip.out && [ "$v" = "out_of_memory=1 crash=0" ] &&
  grep -q "out of memory: .*limit of 268435456 bytes (--memory-limit)" eip.out
check_rc "the oracle on a 62 MB EIP output at 256M: $v" $? "$(head -c 1500 eip.out)"

# 3. A lower inherited limit is kept and named.
(ulimit -S -v 600000 && "$dmconf" run --backend-lib "$alloc_big" --ops d2s --count 3 \
  --directed-count 0 --quiet --memory-limit 4G --timeout 60 --no-shrink \
  --report inherited.json >inherited.out 2>&1)
v=$(verdicts inherited.json)
[[ "$v" == "out_of_memory="[1-9]*" crash=0" ]] &&
  grep -q "limit of 614400000 bytes (the limit inherited from the caller, .ulimit -v., lower than --memory-limit 4294967296)" inherited.out
check_rc "ulimit -S -v 600000 under --memory-limit 4G: $v, the inherited limit named" $? \
  "$(head -c 1500 inherited.out)"
[ "$fail" -eq 0 ] && echo "memory_limit_test: ok"
exit "$fail"
