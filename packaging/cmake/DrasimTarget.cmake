# SPDX-License-Identifier: Apache-2.0
# One place that gives every drasim target the same standard, warnings and sanitizers.

function(drasim_apply_defaults target)
    target_compile_features(${target} PUBLIC cxx_std_20)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(DRASIM_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(DRASIM_SANITIZERS)
        target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                 -fno-sanitize-recover=undefined)
        target_link_options(${target} PRIVATE -fsanitize=address,undefined)
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
