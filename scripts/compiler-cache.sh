# Sourced by the build scripts (scripts/test.sh, scripts/coverage.sh): compiles through ccache,
# with one cache for every clone of rlc on this machine, so that a fresh clone (CI's) takes the
# objects an earlier build of the same sources made instead of compiling them again. The objects
# are the same either way: ccache hashes the compiler, its flags and every preprocessed input.
#
# Sets RLC_CACHE_ARGS (an array of CMake arguments; empty when ccache is missing, which only
# makes the build slower) and RLC_CACHE_FLAGS (compiler flags to add to a build with debug
# information, so that its objects name no clone's folder).
#
# Environment: RLC_CCACHE=0 builds without the cache; CCACHE_DIR (default ~/.cache/rlc/ccache)
# and CCACHE_MAXSIZE (default 8G) as ccache reads them.
RLC_CACHE_ARGS=()
RLC_CACHE_FLAGS=""
if [ "${RLC_CCACHE:-1}" != "0" ] && command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rlc/ccache}
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
  # Paths under the clone are hashed relative to it, and the working folder is left out of the
  # hash: two clones in different folders share their objects. Debug information would still
  # name the folder it was built in; RLC_CACHE_FLAGS maps that to '.'.
  export CCACHE_BASEDIR=$PWD
  export CCACHE_NOHASHDIR=1
  RLC_CACHE_ARGS=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  RLC_CACHE_FLAGS="-fdebug-prefix-map=$PWD=."
fi
