#!/usr/bin/env bash
# The rlc binary must load Debian's simdjson before the Arrow wheel's libraries, which export a
# copy of simdjson of their own: else rlc's JSON parsing binds to Arrow's copy, another version,
# and crashes (cmake/FindArrowParquet.cmake). Usage: check_link_order.sh BINARY
set -u
binary=$1
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
simdjson=$(grep -n '^libsimdjson' <<<"$needed" | cut -d: -f1)
first_arrow=$(grep -nE '^lib(arrow|parquet)\.' <<<"$needed" | head -1 | cut -d: -f1)
if [ -z "$simdjson" ] || [ -z "$first_arrow" ]; then
  echo "link order: $binary must need both libsimdjson and Arrow; it needs:"; echo "$needed"; exit 1
fi
if [ "$simdjson" -ge "$first_arrow" ]; then
  echo "link order: libsimdjson comes after Arrow's libraries in $binary:"; echo "$needed"; exit 1
fi
echo "link order: ok (libsimdjson before Arrow's libraries)"
