# Warnings for project targets (not for third-party headers, which are SYSTEM includes).
function(once_target_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)
    # GCC 12 reports -Wstringop-overflow inside libstdc++'s own basic_string when a literal is
    # concatenated with a temporary string at -O2/-O3 (GCC bug 105651, fixed in GCC 13): a false
    # positive in the standard library, not in our code, and the only warnings of the tree.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        target_compile_options(${target} PRIVATE
            $<$<COMPILE_LANGUAGE:CXX>:-Wno-stringop-overflow>)
    endif()
    if(ONCE_WARNINGS_AS_ERRORS)
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
endfunction()
