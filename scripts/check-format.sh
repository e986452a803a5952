#!/usr/bin/env bash
# Checks that every C/C++ source file is formatted with clang-format (.clang-format: Google
# base style). scripts/check-format.sh --fix reformats them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.cc' '*.c' '*.hpp' '*.cpp')
[ "${#files[@]}" -gt 0 ] || exit 0
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run -Werror "${files[@]}" 2>/tmp/dmconf-format.$$; then
  grep -E '^[^ ].*: (error|warning)' /tmp/dmconf-format.$$ | cut -d: -f1 | sort -u |
    sed 's/^/check-format: not formatted: /' >&2
  rm -f /tmp/dmconf-format.$$
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
rm -f /tmp/dmconf-format.$$
echo "check-format: ${#files[@]} files formatted"
