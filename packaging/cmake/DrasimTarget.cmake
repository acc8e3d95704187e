# SPDX-License-Identifier: Apache-2.0
# One place that gives every drasim target the same standard, warnings and sanitizers.

# drasim_apply_defaults(TARGET [TEST_PROGRAM]): TEST_PROGRAM marks a test program, whose own code
# DRASIM_SANITIZE_TEST_CODE=OFF leaves uninstrumented (it is still linked with the sanitizers'
# runtimes, so the instrumented core it calls reports as before).
function(drasim_apply_defaults target)
    cmake_parse_arguments(ARG "TEST_PROGRAM" "" "" ${ARGN})
    target_compile_features(${target} PUBLIC cxx_std_20)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(DRASIM_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(DRASIM_SANITIZERS)
        if(NOT ARG_TEST_PROGRAM OR DRASIM_SANITIZE_TEST_CODE)
            target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                     -fno-sanitize-recover=undefined)
        endif()
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    endif()
endfunction()

# drasim_use_program_allocator(TARGET): an executable allocates with jemalloc (DRASIM_JEMALLOC; see
# the top-level CMakeLists.txt). Linked even where no object names a jemalloc symbol (linkers that
# drop unneeded libraries by default would otherwise leave the C library's malloc in place).
function(drasim_use_program_allocator target)
    if(TARGET PkgConfig::JEMALLOC)
        target_link_libraries(${target} PRIVATE "-Wl,--push-state,--no-as-needed" PkgConfig::JEMALLOC
                                                "-Wl,--pop-state")
        target_compile_definitions(${target} PRIVATE DRASIM_WITH_JEMALLOC=1)
    endif()
endfunction()

# drasim_add_module(NAME SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# Creates the static library drasim_<name> with alias drasim::<name>. Include paths are
# root-relative ("core/allocator/allocator.h") so the layer shows in every include line.
function(drasim_add_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
    add_library(drasim_${name} STATIC ${ARG_SOURCES})
    add_library(drasim::${name} ALIAS drasim_${name})
    target_include_directories(drasim_${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
    target_link_libraries(drasim_${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    drasim_apply_defaults(drasim_${name})
endfunction()
