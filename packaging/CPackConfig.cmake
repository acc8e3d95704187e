# SPDX-License-Identifier: Apache-2.0
# `cpack` in the build folder makes a .deb and a .tar.gz of drasim and drasim-gui.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/drasim.desktop DESTINATION share/applications)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION share/drasim/scenarios)
if(EXISTS ${PROJECT_SOURCE_DIR}/resources/hardware)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/hardware/ DESTINATION share/drasim/hardware)
endif()

set(CPACK_PACKAGE_NAME drasim)
set(CPACK_PACKAGE_VENDOR "drasim developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Kubernetes Dynamic Resource Allocation cluster simulator and capacity planner")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "drasim developers")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
