#!/usr/bin/env bash
# Checks that the starter code earns nothing: every lab test must fail (or skip for lack
# of a device), and every failure message must name the lab and step.
#   verify_starter.sh LOG_DIR BINARY...
# A test that passes on the untouched starter cannot tell a solution from a TODO: that is
# a defect in the test, reported here.
set -u
logdir=$1; shift
mkdir -p "$logdir"
bad=0
for bin in "$@"; do
  name=$(basename "$bin")
  log="$logdir/$name.log"
  "$bin" --gtest_color=no >"$log" 2>&1
  line=$(grep '^KIT-SUMMARY' "$log" | tail -1)
  if [ -z "$line" ]; then echo "verify-starter: $name crashed on the starter (see $log)"; bad=1; continue; fi
  p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
  if [ "$p" != 0 ]; then
    echo "verify-starter: $name: $p test(s) PASS on the starter:"; grep '^\[       OK \]' "$log" | sed 's/^/    /'; bad=1
  fi
  named=$(grep -cE '[0-9]{2}-[a-z0-9-]+ step [0-9]+' "$log")
  if [ "$f" -gt 0 ] && [ "$named" -eq 0 ]; then echo "verify-starter: $name: failures do not name a lab step"; bad=1; fi
  echo "verify-starter: $name: $p passed, $f failed (step-named messages: $named)"
done
[ "$bad" = 0 ] && echo "verify-starter: OK, the starter earns no test"
exit $bad
