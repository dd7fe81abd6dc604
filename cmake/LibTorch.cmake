# LibTorch from the `torch` wheel in the project virtualenv (see scripts/setup.sh).
#
# Why not find_package(Torch): the PyPI wheel is a CUDA build, and its Caffe2 config insists on
# matching the CUDA toolkit, cuDNN and NCCL of the machine even for a CPU-only program. We only
# need the CPU libraries (libtorch_cpu, libc10) for `core`; the CUDA libraries are added for the
# `gpu` target when CUDA is enabled. So we define the imported targets ourselves.
set(ONCE_TORCH_DIR "" CACHE PATH "Root of the torch package (folder holding include/ and lib/)")
if(NOT ONCE_TORCH_DIR)
    if(NOT EXISTS "${ONCE_PYTHON}")
        message(FATAL_ERROR "ONCE: no Python at ${ONCE_PYTHON}. Run scripts/setup.sh first, "
                            "or pass -DONCE_TORCH_DIR=/path/to/site-packages/torch")
    endif()
    execute_process(
        COMMAND "${ONCE_PYTHON}" -c "import os, importlib.util as u; print(os.path.dirname(u.find_spec('torch').origin))"
        OUTPUT_VARIABLE _torch_dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0 OR NOT EXISTS "${_torch_dir}/include")
        message(FATAL_ERROR "ONCE: torch is not installed in ${ONCE_PYTHON} (run scripts/setup.sh)")
    endif()
    set(ONCE_TORCH_DIR "${_torch_dir}" CACHE PATH "" FORCE)
endif()
message(STATUS "ONCE: LibTorch from ${ONCE_TORCH_DIR}")

add_library(once_libtorch_c10 SHARED IMPORTED)
set_target_properties(once_libtorch_c10 PROPERTIES IMPORTED_LOCATION "${ONCE_TORCH_DIR}/lib/libc10.so")
add_library(once_libtorch_cpu SHARED IMPORTED)
set_target_properties(once_libtorch_cpu PROPERTIES IMPORTED_LOCATION "${ONCE_TORCH_DIR}/lib/libtorch_cpu.so")

add_library(once_libtorch INTERFACE)
add_library(once::libtorch ALIAS once_libtorch)
target_include_directories(once_libtorch SYSTEM INTERFACE
    "${ONCE_TORCH_DIR}/include" "${ONCE_TORCH_DIR}/include/torch/csrc/api/include")
target_compile_definitions(once_libtorch INTERFACE _GLIBCXX_USE_CXX11_ABI=1)
target_link_libraries(once_libtorch INTERFACE once_libtorch_cpu once_libtorch_c10 Threads::Threads)
# libtorch_cpu needs libcudart/libcupti at load time (CUDA build of the wheel); the wheel's
# nvidia packages hold them. The rpath lets the programs start without LD_LIBRARY_PATH.
file(GLOB _nv_lib_dirs LIST_DIRECTORIES true "${ONCE_TORCH_DIR}/../nvidia/*/lib" "${ONCE_TORCH_DIR}/../nvidia/cu*/lib")
set(ONCE_TORCH_RPATH "${ONCE_TORCH_DIR}/lib" ${_nv_lib_dirs})
set(CMAKE_BUILD_RPATH ${CMAKE_BUILD_RPATH} ${ONCE_TORCH_RPATH})
set(CMAKE_INSTALL_RPATH ${CMAKE_INSTALL_RPATH} ${ONCE_TORCH_RPATH})
