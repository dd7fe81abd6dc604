# Warnings for project targets (not for third-party headers, which are SYSTEM includes).
function(once_target_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)
    # GCC 12 reports -Wstringop-overflow (and, once that is off, -Warray-bounds or -Wrestrict
    # on the same memcpy) inside libstdc++'s own basic_string when a literal is concatenated
    # with a temporary string at -O2/-O3 (GCC bugs 105651 and 105329, fixed in GCC 13): false
    # positives in the standard library, not in our code, and the only warnings of the tree.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        target_compile_options(${target} PRIVATE
            $<$<COMPILE_LANGUAGE:CXX>:-Wno-stringop-overflow -Wno-array-bounds -Wno-restrict>)
    endif()
    if(ONCE_WARNINGS_AS_ERRORS)
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
endfunction()
