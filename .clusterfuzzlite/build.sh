#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: builds every target of fuzz/targets with the engine's
# flags ($CC, $CXX, $CFLAGS, $CXXFLAGS, $LIB_FUZZING_ENGINE) and copies each binary with its
# .options, .dict and seed corpus (a zip of fuzz/corpus/<name>) into $OUT, as the layout expects.
cd "$SRC/rlc"
cmake -S . -B build-oss -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLC_FUZZ=ON -DRLC_TESTS=OFF -DRLC_BENCH=OFF \
  -DRLC_WERROR=OFF -DRLC_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
ninja -C build-oss rlc_fuzzers
for target in fuzz/targets/*_fuzzer.cc; do
  name=$(basename "$target" .cc)
  cp "build-oss/fuzz/$name" "$OUT/"
  cp "fuzz/targets/$name.options" "$OUT/"
  [ -f "fuzz/targets/$name.dict" ] && cp "fuzz/targets/$name.dict" "$OUT/"
  (cd "fuzz/corpus/${name%_fuzzer}" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done
