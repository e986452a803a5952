# Sourced after check_lib.sh by the tests of the hostile plugins (hostile_plugin.c), which record
# each process they start as a file named by its pid in $DMCONF_HOSTILE_PID_DIR. It gives:
#   $DMCONF_HOSTILE_PID_DIR   $tmp/pids, exported, made empty;
#   cleanup      kills every recorded process (check_lib.sh runs it on exit, even when a check
#                failed: nothing is left behind);
#   survivors    how many recorded processes still exist (zombies of init count as gone, and
#                a pid reused by another process is not the recorded one);
#   recorded     how many were recorded;
#   reset_pids   forgets them (an empty folder).
export DMCONF_HOSTILE_PID_DIR="$tmp/pids"
mkdir -p "$DMCONF_HOSTILE_PID_DIR"
# is_recorded_alive FILE: the process FILE names is alive, not a zombie, and the one recorded:
# its start time (field 22 of /proc/PID/stat) is the one in FILE. pid_max may be 32768 and a
# test starts thousands of processes, so a recorded pid is often reused by another process
# (this shell's own children among them), which must be neither counted nor killed.
is_recorded_alive() {
  # Shell builtins only: a check of 30,000 files (the process-cap tests) must not fork twice
  # per file.
  local pid=${1##*/} stat="" want=""
  { read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 1
  { read -r want <"$1"; } 2>/dev/null  # no newline at its end: read fails, yet sets want
  stat=${stat##*) }
  # shellcheck disable=SC2086
  set -- $stat
  # A file still empty (the process was stopped between creating and writing it) names the
  # pid alone: counted while alive, as before start times were recorded.
  [ "$1" != Z ] && { [ -z "$want" ] || [ "${20}" = "$want" ]; }
}
cleanup() {
  local f
  for f in "$DMCONF_HOSTILE_PID_DIR"/*; do
    [ -s "$f" ] && is_recorded_alive "$f" && kill -9 "${f##*/}" 2>/dev/null
  done
}
survivors() {
  local n=0 f
  for f in "$DMCONF_HOSTILE_PID_DIR"/*; do
    [ -e "$f" ] || continue
    is_recorded_alive "$f" && n=$((n + 1))
  done
  echo "$n"
}
recorded() { ls "$DMCONF_HOSTILE_PID_DIR" 2>/dev/null | wc -l; }
reset_pids() { rm -rf "$DMCONF_HOSTILE_PID_DIR"; mkdir -p "$DMCONF_HOSTILE_PID_DIR"; }
