#!/usr/bin/env bash
# Installs the Debian 12 packages rlc builds, tests and runs with (ccache: the compiler cache of
# scripts/compiler-cache.sh; chromium: headless, for the report screenshot test, CTest label
# chromium; clang-format-14: the format check; Java 17 and Maven: the Delta Spark judge, CTest
# label engines), then the pinned Python packages
# (scripts/install-python.sh; Arrow C++ and Parquet come from the pyarrow wheel) and the judge
# (scripts/install-engines.sh).
# Idempotent: it asks apt only for packages that are missing and pip only for wheels its cache
# lacks, so a machine that has them all does no network work at all.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache pkg-config git ca-certificates
  libgtest-dev libgmock-dev libbenchmark-dev
  libz3-dev librapidcheck-dev libroaring-dev libboost-graph-dev
  nlohmann-json3-dev libsimdjson-dev libcli11-dev libfmt-dev zlib1g-dev libgoogle-perftools-dev
  clang-14 libclang-rt-14-dev clang-format-14 graphviz python3 python3-venv python3-pip libxml2-utils
  chromium openjdk-17-jdk-headless maven
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Arrow C++ with Parquet, from the pinned pyarrow wheel, and delta-rs, into the project's .venv.
bash "$(dirname "$0")/install-python.sh"
# The Delta Spark judge of tests/engines (OSS Delta Spark and Apache Spark from Maven Central).
bash "$(dirname "$0")/install-engines.sh"
