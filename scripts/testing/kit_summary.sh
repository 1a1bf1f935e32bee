# Reads the summary line each kit test binary prints last (tests/support's main):
#   KIT-SUMMARY test_02-csr passed=12 failed=0 skipped=3
# Sourced by run_tests.sh, verify_starter.sh and check_judge.sh.
#   kit_summary LOG
# sets summary (the line without its tag), summary_passed, summary_failed and summary_skipped
# from the last such line of LOG. Status 1 when LOG has none: the binary crashed or was killed
# before it could print one.
kit_summary() {
  local line
  line=$(grep '^KIT-SUMMARY' "$1" | tail -1)
  [ -n "$line" ] || return 1
  summary=${line#KIT-SUMMARY }
  summary_passed=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
  summary_failed=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
  summary_skipped=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$line")
}
