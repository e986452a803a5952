# Sourced after check_lib.sh by the tests of the hostile plugins (hostile_plugin.c), which record
# each process they start as a file named by its pid in $DMCONF_HOSTILE_PID_DIR. It gives:
#   $DMCONF_HOSTILE_PID_DIR   $tmp/pids, exported, made empty;
#   cleanup      kills every recorded process (check_lib.sh runs it on exit, even when a check
#                failed: nothing is left behind);
#   survivors    how many recorded processes still exist (zombies of init count as gone);
#   recorded     how many were recorded;
#   reset_pids   forgets them (an empty folder).
export DMCONF_HOSTILE_PID_DIR="$tmp/pids"
mkdir -p "$DMCONF_HOSTILE_PID_DIR"
cleanup() {
  for f in "$DMCONF_HOSTILE_PID_DIR"/*; do [ -e "$f" ] && kill -9 "$(basename "$f")" 2>/dev/null; done
}
survivors() {
  local n=0 pid state
  for f in "$DMCONF_HOSTILE_PID_DIR"/*; do
    [ -e "$f" ] || continue
    pid=$(basename "$f")
    state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || continue
    [ "$state" = "Z" ] || n=$((n + 1))
  done
  echo "$n"
}
recorded() { ls "$DMCONF_HOSTILE_PID_DIR" 2>/dev/null | wc -l; }
reset_pids() { rm -rf "$DMCONF_HOSTILE_PID_DIR"; mkdir -p "$DMCONF_HOSTILE_PID_DIR"; }
