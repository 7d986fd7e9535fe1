#!/usr/bin/env bash
# Runs the libFuzzer targets (cargo-fuzz) for N inputs each, from a corpus
# seeded with schemas/examples, saving every crashing input.
#
#   fuzz/run.sh [RUNS] [TARGET...]       RUNS defaults to 1000000; targets: document log detect leaf
#   FUZZ_SECONDS=600 fuzz/run.sh ...       also stop each target after this many seconds
#
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Crashing inputs go to fuzz/artifacts/TARGET/ (replay one with
# `cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...`); each
# becomes a regression test. The corpus grows in fuzz/corpus/TARGET/
# (ignored by git). Built without a sanitizer: the crates are `unsafe`-free,
# and what we look for is panics and broken properties (assertions).
set -euo pipefail
cd "$(dirname "$0")"
runs="${1:-1000000}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(document log detect leaf)
examples=../schemas/examples
for t in "${targets[@]}"; do
  corpus="corpus/$t"
  mkdir -p "$corpus" "artifacts/$t"
  if [ -z "$(ls -A "$corpus")" ]; then
    case "$t" in
      leaf)
        # Every string of the examples (ids, timestamps, ...), one a file.
        grep -ohE '"[^"]{1,80}"' "$examples"/valid/*.json | sort -u | tr -d '"' |
          split -l 1 - "$corpus/seed-" ;;
      log)
        # The flags byte first (bit 0: partial; the rest: the read buffer).
        for f in "$examples"/valid/*.ndjson "$examples"/invalid/*.ndjson; do
          [ -e "$f" ] || continue
          { printf '\x10'; cat "$f"; } > "$corpus/$(basename "$f")"
        done ;;
      *)
        cp "$examples"/valid/*.json "$examples"/invalid/*.json "$corpus"/ 2>/dev/null || true
        rm -f "$corpus"/*.expect.json ;;
    esac
  fi
  start=$(date +%s)
  status=0
  cargo +nightly fuzz run --sanitizer none "$t" "$corpus" -- \
    -runs="$runs" -artifact_prefix="artifacts/$t/" -max_len=65536 \
    -rss_limit_mb=2048 -print_final_stats=1 ${FUZZ_SECONDS:+-max_total_time="$FUZZ_SECONDS"} 2> "artifacts/$t.log" || status=$?
  end=$(date +%s)
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "artifacts/$t.log" | grep -Eo '[0-9]+$' || echo "?")
  echo "$t: $execs inputs in $((end - start)) s, exit $status, artifacts: $(ls "artifacts/$t" | wc -l)"
done
