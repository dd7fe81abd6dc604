# Installation layout and the CPack .deb of ONCE Studio (included from app/studio).
#
#   /usr/bin/once-studio, /usr/bin/once            the GUI and the CLI
#   /usr/lib/libonce_core.so                       the engine (installed by core/)
#   /usr/lib/once-studio/                          LibTorch's CPU runtime, bundled privately:
#                                                  libtorch_cpu, libc10, libgomp, and the two
#                                                  CUDA runtime stubs the PyPI build of
#                                                  libtorch_cpu needs at load time
#   /usr/share/once-studio/demo/                   the demo video and codebook
#   /usr/share/applications, metainfo, icons       desktop integration
#
# Qt, QCustomPlot, FFmpeg, ICU and PCRE2 come from Debian (dpkg-shlibdeps fills Depends).
# The build tree keeps its absolute LibTorch rpath; installed binaries find everything relative
# to themselves, so the package works without the project's virtualenv.
include(GNUInstallDirs)

set(ONCE_PRIVATE_LIBDIR "lib/once-studio")
set_target_properties(once-studio once PROPERTIES
    INSTALL_RPATH "$ORIGIN/../lib;$ORIGIN/../${ONCE_PRIVATE_LIBDIR}")
set_target_properties(once_core PROPERTIES INSTALL_RPATH "$ORIGIN;$ORIGIN/once-studio")

# LibTorch runtime: the libraries libtorch_cpu loads (it finds its neighbours through $ORIGIN).
set(_once_torch_libs
    "${ONCE_TORCH_DIR}/lib/libtorch_cpu.so"
    "${ONCE_TORCH_DIR}/lib/libc10.so")
file(GLOB _once_gomp "${ONCE_TORCH_DIR}/lib/libgomp*.so*")
file(GLOB _once_cuda_stubs "${ONCE_TORCH_DIR}/../nvidia/*/lib/libcudart.so.*"
                           "${ONCE_TORCH_DIR}/../nvidia/*/lib/libcupti.so.*")
list(APPEND _once_torch_libs ${_once_gomp} ${_once_cuda_stubs})
foreach(lib IN LISTS _once_torch_libs)
    if(NOT EXISTS "${lib}")
        message(WARNING "ONCE packaging: ${lib} not found; the package will not start")
    endif()
endforeach()
install(FILES ${_once_torch_libs} DESTINATION "${ONCE_PRIVATE_LIBDIR}"
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

set(_once_app_id "org.once_studio.OnceStudio")
install(FILES "${CMAKE_SOURCE_DIR}/packaging/${_once_app_id}.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${CMAKE_SOURCE_DIR}/packaging/${_once_app_id}.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
install(FILES "${CMAKE_SOURCE_DIR}/resources/icons/once-studio.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps"
        RENAME "${_once_app_id}.svg")
foreach(size 48 64 128 256)
    install(FILES "${CMAKE_SOURCE_DIR}/resources/icons/once-studio-${size}.png"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps"
            RENAME "${_once_app_id}.png")
endforeach()
file(GLOB _once_demo_files "${CMAKE_SOURCE_DIR}/resources/demo/demo.mp4"
                           "${CMAKE_SOURCE_DIR}/resources/demo/demo_codebook.safetensors")
install(FILES ${_once_demo_files} DESTINATION "${CMAKE_INSTALL_DATADIR}/once-studio/demo")

# ---- CPack: one .deb ---------------------------------------------------------------------
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "once-studio")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "ONCE Studio")
set(CPACK_PACKAGE_CONTACT "ONCE Studio maintainers <maintainers@once-studio.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Video-token compression with a global codebook")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "ONCE Studio shows what global-codebook compression does to the visual tokens of a video\n"
    "language model: codeword groups on every frame, a token-budget slider, question answering\n"
    "with dense and compressed inputs side by side, diagnostic charts with export, and a\n"
    "codebook trainer. Includes the `once` command-line tool.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://once-studio.org")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps runs in the staging folder: it must find the bundled LibTorch and the engine
# in the package itself, not on the system.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "usr/${ONCE_PRIVATE_LIBDIR};usr/lib")
# Loaded at run time rather than linked: the X11/Wayland platform plugins, the SVG icon engine,
# the FFmpeg multimedia backend (in libqt6multimedia6) and Qt's own translations.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "qt6-translations-l10n, qt6-wayland, fonts-noto-cjk | fonts-wqy-microhei")
# The bundled LibTorch is stripped by its vendor already; stripping again only costs time.
set(CPACK_STRIP_FILES OFF)
include(CPack)
