# SPDX-License-Identifier: Apache-2.0
# Where `cmake --install` (and so the .deb) puts drasim's data, as Debian expects it. The programs
# themselves install from app/cli and app/gui. Installed programs find their data relative to their
# own location (<prefix>/bin -> <prefix>/share/drasim), never in the source tree.
include(GNUInstallDirs)

set(DRASIM_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/drasim)

# resources/ and scenarios/ keep their relative layout, so paths inside scenarios
# (../../resources/traces/...) resolve the same way in a checkout and in an installation.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/ DESTINATION ${DRASIM_SHARE_DIR}/resources
        PATTERN screenshots EXCLUDE)
# The conformance cases are test data (and their generators), not examples.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${DRASIM_SHARE_DIR}/scenarios
        PATTERN conformance EXCLUDE)

# Desktop integration: entry, icon and AppStream metadata under the application id.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/dev.drasim.Drasim.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/dev.drasim.Drasim.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/dev.drasim.Drasim.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# Documentation: Debian wants the copyright file, a gzipped changelog and gzipped manual pages,
# compressed without a timestamp so the package is reproducible.
set(DRASIM_PKG_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/drasim)
set(drasim_gz_dir ${PROJECT_BINARY_DIR}/packaging)
set(drasim_gz_files)
foreach(pair "debian/changelog:changelog.gz" "debian/drasim.1:drasim.1.gz" "debian/drasim-gui.1:drasim-gui.1.gz")
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 src)
    list(GET pair 1 dst)
    add_custom_command(OUTPUT ${drasim_gz_dir}/${dst}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${drasim_gz_dir}
        COMMAND gzip -9 -n -c ${PROJECT_SOURCE_DIR}/packaging/${src} > ${drasim_gz_dir}/${dst}
        DEPENDS ${PROJECT_SOURCE_DIR}/packaging/${src}
        COMMENT "Compressing ${dst}" VERBATIM)
    list(APPEND drasim_gz_files ${drasim_gz_dir}/${dst})
endforeach()
add_custom_target(drasim_packaging_docs ALL DEPENDS ${drasim_gz_files})
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright ${drasim_gz_dir}/changelog.gz
        DESTINATION ${DRASIM_PKG_DOC_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${DRASIM_PKG_DOC_DIR})
install(FILES ${drasim_gz_dir}/drasim.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
if(DRASIM_BUILD_GUI)
    install(FILES ${drasim_gz_dir}/drasim-gui.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
