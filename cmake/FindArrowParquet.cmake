# Finds Apache Arrow C++ and Parquet C++ as the pinned pyarrow wheel ships them (libraries named
# libarrow.so.<major>00 and libparquet.so.<major>00 with no unversioned link, headers under
# include/), installed by scripts/install-python.sh into the project's .venv
# (docs/toolchain.md#arrow). Defines the imported targets Arrow::arrow and Arrow::parquet; their
# headers are system headers, so our warnings-as-errors do not apply to them.
#
# Input: RLC_PYARROW_DIR, the wheel's `pyarrow` folder (default: the one in ${PROJECT_SOURCE_DIR}/.venv).
if(NOT RLC_PYARROW_DIR)
  file(GLOB _rlc_pyarrow_dirs "${PROJECT_SOURCE_DIR}/.venv/lib/python3*/site-packages/pyarrow")
  list(SORT _rlc_pyarrow_dirs)
  list(GET _rlc_pyarrow_dirs -1 _rlc_pyarrow_dir)
  set(RLC_PYARROW_DIR "${_rlc_pyarrow_dir}" CACHE PATH "The pyarrow wheel's folder (Arrow C++)")
endif()

find_path(ArrowParquet_INCLUDE_DIR parquet/arrow/reader.h PATHS "${RLC_PYARROW_DIR}/include"
          NO_DEFAULT_PATH)
file(GLOB _rlc_arrow_lib "${RLC_PYARROW_DIR}/libarrow.so.[0-9]*")
file(GLOB _rlc_parquet_lib "${RLC_PYARROW_DIR}/libparquet.so.[0-9]*")
if(ArrowParquet_INCLUDE_DIR AND EXISTS "${ArrowParquet_INCLUDE_DIR}/arrow/util/config.h")
  file(STRINGS "${ArrowParquet_INCLUDE_DIR}/arrow/util/config.h" _rlc_arrow_version
       REGEX "#define ARROW_VERSION_STRING")
  string(REGEX REPLACE ".*\"(.*)\".*" "\\1" ArrowParquet_VERSION "${_rlc_arrow_version}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ArrowParquet
  REQUIRED_VARS ArrowParquet_INCLUDE_DIR _rlc_arrow_lib _rlc_parquet_lib
  VERSION_VAR ArrowParquet_VERSION
  REASON_FAILURE_MESSAGE "run scripts/install-deps.sh (it installs the pinned pyarrow wheel into .venv), or set RLC_PYARROW_DIR")

# The wheel's libraries export the copy of simdjson Arrow was built with. rlc parses JSON with
# Debian's simdjson, so that library must come first on every link line that has Arrow's: else the
# linker binds rlc's simdjson calls to Arrow's copy (another version) and they crash at run time.
# So the wheel's libraries are made dependencies of Debian's simdjson target: CMake then places
# them after it on every link line. A test (tests/layering) checks the order in the rlc binary.
if(ArrowParquet_FOUND AND NOT TARGET Arrow::arrow)
  add_library(Arrow::arrow_library SHARED IMPORTED)
  set_target_properties(Arrow::arrow_library PROPERTIES IMPORTED_LOCATION "${_rlc_arrow_lib}")
  add_library(Arrow::parquet_library SHARED IMPORTED)
  set_target_properties(Arrow::parquet_library PROPERTIES IMPORTED_LOCATION "${_rlc_parquet_lib}")
  add_library(Arrow::arrow INTERFACE IMPORTED)
  set_target_properties(Arrow::arrow PROPERTIES
    INTERFACE_LINK_LIBRARIES "simdjson::simdjson;Arrow::arrow_library"
    INTERFACE_INCLUDE_DIRECTORIES "${ArrowParquet_INCLUDE_DIR}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${ArrowParquet_INCLUDE_DIR}")
  add_library(Arrow::parquet INTERFACE IMPORTED)
  set_target_properties(Arrow::parquet PROPERTIES
    INTERFACE_LINK_LIBRARIES "simdjson::simdjson;Arrow::parquet_library;Arrow::arrow")
  set_property(TARGET simdjson::simdjson APPEND PROPERTY INTERFACE_LINK_LIBRARIES
    Arrow::parquet_library Arrow::arrow_library)
endif()
